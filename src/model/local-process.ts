// This dbform process as the locks see it. The CLI builds it from `process`
// (src/cli/local-process.ts); the layers below take it as a value, so that a test can play a
// second process or a dead one, and nothing under src/ but the CLI touches `process`.
export interface LocalProcess {
  pid: number;
  /** This machine's host name: the lock of another host is never judged stale. */
  host: string;
  /** Whether a process with `pid` still runs on this host. */
  isAlive(pid: number): boolean;
}
