import { describe, expect, it } from 'vitest';
import { copyrightLine } from './copyright';

describe('copyrightLine', () => {
  it('spans from the start year to the current year', () => {
    expect(copyrightLine(2024, 2026, 'Resource Vault')).toBe('© 2024–2026 Resource Vault');
  });
  it('shows one year when the start year is this year', () => {
    expect(copyrightLine(2026, 2026, 'Resource Vault')).toBe('© 2026 Resource Vault');
  });
  it('never shows a range that runs backwards', () => {
    expect(copyrightLine(2030, 2026, 'Ann')).toBe('© 2026 Ann');
  });
  it('leaves the holder out when there is none', () => {
    expect(copyrightLine(2024, 2025, '  ')).toBe('© 2024–2025');
  });
});
