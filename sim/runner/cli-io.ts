/** What the command line touches of the host, injected so the CLI runs in-process in tests. */
export interface CliIo {
  readFile(path: string): string;
  writeFile(path: string, text: string): void;
  stdout(text: string): void;
  stderr(text: string): void;
}
