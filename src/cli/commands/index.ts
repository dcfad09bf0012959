import type { Command } from '../command.js';
import { apiCommand } from './api.js';
import { auditCommand } from './audit.js';
import { baselineCommand } from './baseline.js';
import { diffCommand } from './diff.js';
import { emulatorCommand } from './emulator.js';
import { firewallCommand } from './firewall.js';
import { invitesCommand } from './invites.js';
import { logCommand } from './log.js';
import { migrateCommand } from './migrate.js';
import { pruneCommand } from './prune.js';
import { demoCommand } from './demo.js';
import { runCommand } from './run.js';
import { reportCommand } from './report.js';
import { rulesCommand } from './rules.js';
import { scheduleCommand } from './schedule.js';
import { statusCommand } from './status.js';
import { scanCommand } from './scan.js';
import { scansCommand } from './scans.js';

/** Every command, in the order `zonewarden --help` lists them. */
export const COMMANDS: Command[] = [demoCommand, runCommand, scheduleCommand, statusCommand, scanCommand, scansCommand, auditCommand, reportCommand, diffCommand, baselineCommand, rulesCommand, invitesCommand, firewallCommand, migrateCommand, logCommand, pruneCommand, apiCommand, emulatorCommand] as unknown as Command[];
