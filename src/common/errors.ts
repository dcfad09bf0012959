/**
 * Errors that end a command. Each carries the exit code of the CLI contract (design.md) and a
 * stable `code`, so callers branch on classes and codes, never on message text.
 */
export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  incomplete: 3,
} as const;

export class ZonewardenError extends Error {
  readonly exitCode: number = EXIT.usage;
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad flags, commands or option values: the user can fix the command line. */
export class UsageError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_USAGE', message);
  }
}
