// Runs the server as a child process and exits as it did, so a supervisor (systemd, Docker, a
// process manager) set to restart on failure sees every failure. Only the SIGTERM/SIGINT the
// operator sends to this process counts as a clean stop; any other death by a signal (SIGKILL
// from the OOM killer, SIGBUS, SIGSEGV, a signal sent to the child alone) exits 128 + its number.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'];

export function runServer(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  let requested;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      requested = signal;
      child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => {
    if (signal) {
      if (signal === requested) process.exit(0);
      console.error(`The server died: killed by ${signal}.`);
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    if (code !== 0) console.error(`The server exited with code ${code}.`);
    process.exit(code ?? 1);
  });
}
