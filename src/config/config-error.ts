import { ZonewardenError } from '../common/errors.js';

/**
 * Bad configuration (file, environment or values): one line naming the source and the fix. In a
 * module of its own because the loader and the sections it parses (credentials) both throw it.
 */
export class ConfigError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_CONFIG', message);
  }
}
