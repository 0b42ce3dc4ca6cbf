import type { Reporter, TestModule } from 'vitest/node';

/**
 * Names every browser test that failed once and passed on its retry, with what failed the first
 * time (Vitest keeps a retried test's errors), so a race is seen and fixed, not hidden.
 */
export default class FlakyReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const flaky = modules.flatMap((m) =>
      [...m.children.allTests()]
        .filter((t) => t.diagnostic()?.flaky)
        .map((t) => {
          const first = t.result().errors?.[0];
          const why = first ? `\n      ${[first.message.split('\n')[0], ...(first.stack?.split('\n').filter((l) => l.includes('/e2e/')).slice(0, 2) ?? [])].map((l) => l.trim()).join('\n      ')}` : '';
          return `${m.moduleId.replace(/.*\/e2e\//, 'e2e/')} > ${t.fullName}${why}`;
        }),
    );
    if (flaky.length === 0) return;
    process.stdout.write(`\n⚠ ${flaky.length} browser test(s) failed once and passed on retry:\n${flaky.map((n) => `  - ${n}\n`).join('')}\n`);
  }
}
