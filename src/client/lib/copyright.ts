/**
 * The footer's copyright line: "© 2024–2026 Name" from the owner's start year to the current year,
 * "© 2026 Name" once they are the same (or the start year is still ahead).
 */
export function copyrightLine(startYear: number, currentYear: number, holder: string): string {
  const years = startYear < currentYear ? `${startYear}–${currentYear}` : String(currentYear);
  return holder.trim() ? `© ${years} ${holder.trim()}` : `© ${years}`;
}
