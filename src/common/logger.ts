import type { Redact } from './redact.js';

/**
 * Logging to stderr, each line through the redactor. `quiet` keeps warnings and errors only;
 * `verbose` adds per-request detail.
 */
export type LogLevel = 'quiet' | 'normal' | 'verbose';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
  readonly level: LogLevel;
}

export function createLogger(level: LogLevel, write: (line: string) => void, redact: Redact): Logger {
  const emit = (line: string) => write(`${redact(line.replace(/[\r\n]+/g, ' '))}\n`);
  return {
    level,
    info: (m) => level !== 'quiet' && emit(m),
    warn: (m) => emit(`warning: ${m}`),
    debug: (m) => level === 'verbose' && emit(m),
  };
}

/** For library use and tests: drops everything. */
export const silentLogger: Logger = { level: 'quiet', info: () => {}, warn: () => {}, debug: () => {} };
