import { redactorFor, secretsFromEnv } from '../config/credentials.js';
import { ZonewardenError, EXIT } from '../common/errors.js';
import { createRedactor } from '../common/redact.js';
import { printable } from '../common/printable.js';
import { PACKAGE } from '../common/package-info.js';
import { didYouMean } from '../common/did-you-mean.js';
import { databasePath } from '../snapshot/db.js';
import { snapshotFailure } from '../snapshot/failures.js';
import { fileFailure } from '../common/file-failure.js';
import { commandHelp, parseOptions, type CommandIO } from './command.js';
import { createProgress } from './output/scan-progress.js';
import { summaryText } from './output/scan-summary.js';
import { COMMAND_NAMES, loadCommand, loadCommands } from './commands/index.js';

/** The CLI as a function, argv in, exit code out: every failure is one line on stderr (and a stack with --verbose). */
export async function runCli(argv: string[], rawIo: CommandIO): Promise<number> {
  // Everything the CLI prints passes here: credentials never reach a terminal or a log. The key pair's e-mail is
  // removed from diagnostics, not from API data on stdout, where it is the user's own and expected (e.g. in invites).
  let redactOut = createRedactor(secretsFromEnv(rawIo.env).secrets);
  let redactErr = redactorFor(rawIo.env);
  const io: CommandIO = {
    scanDisplay: { progress: createProgress, summary: summaryText },
    ...rawIo,
    stdout: (t) => rawIo.stdout(redactOut(t)),
    stderr: (t) => rawIo.stderr(redactErr(t)),
    // The config file's credentials mapping is known once a command loads it: its values join the secrets.
    redactCredentialsOf: (config) => {
      redactOut = createRedactor(secretsFromEnv(rawIo.env, config).secrets);
      redactErr = redactorFor(rawIo.env, config);
    },
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const out = name === undefined ? io.stderr : io.stdout;
    out(await mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${PACKAGE.version}\n`);
    return EXIT.ok;
  }
  const command = await loadCommand(name);
  if (!command) {
    io.stderr(`zonewarden: unknown command "${name.slice(0, 60)}"; commands: ${COMMAND_NAMES.join(', ')} (see zonewarden --help)${didYouMean(name, [...COMMAND_NAMES])}\n`);
    return EXIT.usage;
  }
  // Stacks only for a command that takes --verbose and was given it: never for a mistyped command line.
  let verbose = false;
  try {
    const options = parseOptions(command, rest);
    verbose = (options as Record<string, unknown>)['verbose'] === true;
    if (options.help) {
      io.stdout(commandHelp(command));
      return EXIT.ok;
    }
    return await command.run(options, io, options._);
  } catch (caught) {
    // A SQLite failure outside the scan (an audit's writes on a full disk, a lock): named as such.
    const opened = databasePath();
    // Another path's failure (a report directory that cannot be made) is named as its own, not the database's.
    const err = fileFailure(caught, opened) ?? (opened === null ? null : snapshotFailure(caught, opened)) ?? caught;
    if (err instanceof ZonewardenError) {
      // One line whatever the message quotes: a parser's error may quote input with its line breaks ("Unexpected
      // token 'r', \"rules:\n  d\"..." for a YAML config), and input's control characters could forge lines.
      const message = printable(err.message);
      const prefixed = message.startsWith(`${command.name}:`) ? message : `${command.name}: ${message}`;
      // An error zonewarden expected says all there is in its one line: a stack is for the unexpected.
      io.stderr(`zonewarden ${prefixed}\n`);
      return err.exitCode;
    }
    const e = err as Error;
    io.stderr(`zonewarden ${command.name}: unexpected error: ${printable(e.message ?? String(err))} (run with --verbose for details)\n`);
    if (verbose && e.stack) io.stderr(`${e.stack}\n`);
    return EXIT.usage;
  }
}

export async function mainHelp(): Promise<string> {
  const COMMANDS = await loadCommands();
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 4;
  return [
    `zonewarden ${PACKAGE.version}: audits the security configuration of zones served by the Cloudflare v4 API.`,
    '',
    'Usage: zonewarden <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    "Run 'zonewarden <command> --help' for a command's options.",
    'Exit codes: 0 done; 1 findings at or above --fail-on; 2 usage, configuration or fatal error;',
    '3 the scan is incomplete.',
    '',
  ].join('\n');
}
