import { ZonewardenError } from '../common/errors.js';

/** Bad configuration: one line naming the source and the fix. Its own module: the loader and credential-map throw it. */
export class ConfigError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_CONFIG', message);
  }
}
