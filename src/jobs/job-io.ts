/**
 * What a job is given to talk to the world: where it stands, its environment, the two output
 * streams (progress, warnings and summaries on stderr; the paths it wrote on stdout) and the stop
 * signal. The CLI hands its own (CommandIO, a superset); a job never imports the CLI.
 */
export interface JobIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stderr is a terminal (progress bars redraw in place there). */
  stderrIsTTY?: boolean;
  /** Resolves when the user asks the process to stop (SIGINT/SIGTERM). */
  stopSignal: Promise<string>;
}
