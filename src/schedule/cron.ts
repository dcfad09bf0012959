import { createTask, validateDetailed, type ScheduledTask } from 'node-cron';
import { UsageError } from '../common/errors.js';

/**
 * Cron expressions and time zones, checked before anything starts, and the timer (node-cron). Overlap
 * is the scheduler's business: --run-now and catch-up runs share the ticks' guard.
 */

export function checkCron(expression: string): string {
  const result = validateDetailed(expression);
  if (!result.valid) {
    const reason = result.errors.map((e) => e.message).join('; ');
    throw new UsageError(`--cron "${expression.slice(0, 80)}" is not a cron expression: ${reason}; e.g. --cron "0 2 * * *" (02:00 every day), with an optional seconds field first`);
  }
  return expression.trim();
}

/** An IANA time zone name (`Europe/Berlin`, `UTC`); the default is the machine's. */
export function checkTimeZone(zone: string | undefined): string {
  const name = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
  } catch {
    throw new UsageError(`--tz "${name.slice(0, 80)}" is not a time zone; use an IANA name such as UTC, Europe/Berlin or America/New_York`);
  }
  return name;
}

export interface CronTimer {
  start(): void;
  stop(): void;
  /** The next tick after now, or null when stopped. */
  next(): Date | null;
}

/** Calls `onTick` at every match, and `onMissed` for one passed while the event loop was held (node-cron skips those). */
export function cronTimer(expression: string, timezone: string, onTick: (at: Date) => void, onMissed: (at: Date) => void): CronTimer {
  const quiet = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
  const task: ScheduledTask = createTask(expression, (context) => onTick(context.date), { timezone, logger: quiet });
  task.on('execution:missed', (context) => onMissed(context.date));
  let running = false;
  return {
    start() {
      running = true;
      void task.start();
    },
    stop() {
      running = false;
      void task.stop();
      void task.destroy();
    },
    next: () => (running ? task.getNextRun() : null),
  };
}
