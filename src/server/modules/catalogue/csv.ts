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
 * inside an unquoted field or text after a closing quote.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let quotedFrom = 0;
  let state: 'start' | 'plain' | 'quoted' | 'closed' = 'start';
  const endField = () => {
    record.push(field);
    field = '';
    state = 'start';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (state === 'quoted') {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else state = 'closed';
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === ',') endField();
    else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      endRecord();
      line++;
    } else if (state === 'closed') throw new CsvError(`Line ${line}: text after a closing quote`);
    else if (c === '"') {
      if (state === 'plain') throw new CsvError(`Line ${line}: a quote inside an unquoted field (quote the whole field and write a quote as "")`);
      state = 'quoted';
      quotedFrom = line;
    } else {
      field += c;
      state = 'plain';
    }
  }
  if (state === 'quoted') throw new CsvError(`Line ${quotedFrom}: a quote is opened and never closed`);
  if (field !== '' || state === 'closed' || record.length > 0) endRecord();
  return records;
}
