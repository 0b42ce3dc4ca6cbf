import type { Reporter, TestModule } from 'vitest/node';

/** Names every browser test that failed once and passed on its retry, so a race is seen and fixed, not hidden. */
export default class FlakyReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const flaky = modules.flatMap((m) => [...m.children.allTests()].filter((t) => t.diagnostic()?.flaky).map((t) => `${m.moduleId.replace(/.*\/e2e\//, 'e2e/')} > ${t.fullName}`));
    if (flaky.length === 0) return;
    process.stdout.write(`\n⚠ ${flaky.length} browser test(s) failed once and passed on retry:\n${flaky.map((n) => `  - ${n}\n`).join('')}\n`);
  }
}
