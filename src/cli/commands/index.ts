import type { Command } from '../command.js';
import { apiCommand } from './api.js';
import { emulatorCommand } from './emulator.js';

/** Every command, in the order `zonewarden --help` lists them. */
export const COMMANDS: Command[] = [apiCommand as unknown as Command, emulatorCommand as unknown as Command];
