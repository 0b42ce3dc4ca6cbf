/**
 * CSV as RFC 4180 has it (comma-separated, CRLF records, double quotes around a field holding a
 * comma, quote or line break, a quote inside one written twice), with the guard spreadsheets need:
 * a cell a spreadsheet would read as a formula gets a leading apostrophe (OWASP "CSV injection"),
 * and reading takes exactly that apostrophe off again, so an export imports unchanged.
 * No dependency offers this in the project, and it is small (docs/decisions/405-catalogue-export-and-import.md).
 */

/** What a spreadsheet may start a formula with; a cell made of apostrophes before one of these is guarded too. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell as written: guarded, then quoted when it must be. */
export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** One record, CRLF-terminated. */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A cell as read: the export's guard apostrophe taken off. */
export function unguard(cell: string): string {
  return FORMULA_START.test(cell) && cell.startsWith("'") ? cell.slice(1) : cell;
}

export class CsvError extends Error {}

/**
 * Records of `text` (a leading byte-order mark is ignored; LF alone also ends a record; a blank
 * last line is no record). Throws CsvError, naming the line, for a quote left open, a quote
 * inside an unquoted field or text after a closing quote. Fields are sliced, not built a
 * character at a time: a 20 MB file parses in well under a second.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const special = /[,\r\n"]/g;
  let record: string[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  if (i >= n) return records;
  for (;;) {
    let field: string;
    if (text[i] === '"') {
      // Quoted: up to the quote that is not doubled.
      const from = line;
      let parts = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) throw new CsvError(`Line ${from}: a quote is opened and never closed`);
        parts += text.slice(j, q);
        if (text[q + 1] === '"') {
          parts += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      for (let k = parts.indexOf('\n'); k >= 0; k = parts.indexOf('\n', k + 1)) line++;
      field = parts;
      i = j;
      if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
        throw new CsvError(`Line ${line}: text after a closing quote`);
      }
    } else {
      special.lastIndex = i;
      let m = special.exec(text);
      // A lone CR inside a field is text.
      while (m && m[0] === '\r' && text[m.index + 1] !== '\n') {
        special.lastIndex = m.index + 1;
        m = special.exec(text);
      }
      const end = m ? m.index : n;
      if (m && m[0] === '"') throw new CsvError(`Line ${line}: a quote inside an unquoted field (quote the whole field and write a quote as "")`);
      field = text.slice(i, end);
      i = end;
    }
    record.push(field);
    if (i >= n) {
      records.push(record);
      return records;
    }
    if (text[i] === ',') {
      i++;
      continue;
    }
    // End of record: CRLF or LF.
    i += text[i] === '\r' ? 2 : 1;
    line++;
    records.push(record);
    record = [];
    if (i >= n) return records;
  }
}
