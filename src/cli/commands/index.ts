import type { Command } from '../command.js';

/**
 * Every command, in the order `zonewarden --help` lists them, each loaded only when it is run: loading all of them
 * and their dependencies took about half a second of every call, a third of the nightly audit's time.
 */
const LOADERS = {
  demo: async () => (await import('./demo.js')).demoCommand,
  run: async () => (await import('./run.js')).runCommand,
  schedule: async () => (await import('./schedule.js')).scheduleCommand,
  status: async () => (await import('./status.js')).statusCommand,
  metrics: async () => (await import('./metrics.js')).metricsCommand,
  scan: async () => (await import('./scan.js')).scanCommand,
  scans: async () => (await import('./scans.js')).scansCommand,
  audit: async () => (await import('./audit.js')).auditCommand,
  report: async () => (await import('./report.js')).reportCommand,
  diff: async () => (await import('./diff.js')).diffCommand,
  baseline: async () => (await import('./baseline.js')).baselineCommand,
  rules: async () => (await import('./rules.js')).rulesCommand,
  invites: async () => (await import('./invites.js')).invitesCommand,
  firewall: async () => (await import('./firewall.js')).firewallCommand,
  migrate: async () => (await import('./migrate.js')).migrateCommand,
  log: async () => (await import('./log.js')).logCommand,
  prune: async () => (await import('./prune.js')).pruneCommand,
  api: async () => (await import('./api.js')).apiCommand,
  emulator: async () => (await import('./emulator.js')).emulatorCommand,
} satisfies Record<string, () => Promise<{ name: string }>>;

export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command of that name, loaded, or null when there is none. */
export async function loadCommand(name: string): Promise<Command | null> {
  if (!Object.hasOwn(LOADERS, name)) return null;
  return (await LOADERS[name as keyof typeof LOADERS]()) as unknown as Command;
}

/** Every command, loaded (for the main help and the generated configuration reference). */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_NAMES.map(async (name) => (await loadCommand(name))!));
}
