import type { Command } from '../command.js';
import { emulatorCommand } from './emulator.js';

/** Every command, in the order `zonewarden --help` lists them. */
export const COMMANDS: Command[] = [emulatorCommand as unknown as Command];
