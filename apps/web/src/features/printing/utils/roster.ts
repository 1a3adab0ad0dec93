/**
 * A class list pasted from a spreadsheet: one student a line, number and name in either order, separated by tabs,
 * commas or spaces. A header line (no digits) is skipped; a line without a number is reported.
 */

export interface RosterStudent {
  number: string;
  name: string;
}

export interface RosterParse {
  students: RosterStudent[];
  /** Lines that name no student number (1-based line numbers). */
  skipped: number[];
  /** Numbers that appear more than once. */
  duplicates: string[];
}

const NUMBER = /^[0-9A-Za-z-]{2,20}$/;

export function parseRoster(input: string): RosterParse {
  const students: RosterStudent[] = [];
  const skipped: number[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  input.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const parts = line
      .split(/[\t,，;；]+|\s+/)
      .map((p) => p.trim())
      .filter(Boolean);
    const numberIndex = parts.findIndex((p) => NUMBER.test(p) && /\d/.test(p));
    if (numberIndex < 0) {
      // A header row (学号 姓名) is expected on the first line; elsewhere it is worth a word.
      if (students.length > 0 || /\d/.test(line)) skipped.push(i + 1);
      return;
    }
    const number = parts[numberIndex]!;
    const name = parts.filter((_, k) => k !== numberIndex).join(' ');
    if (seen.has(number)) duplicates.add(number);
    seen.add(number);
    students.push({ number, name });
  });
  return { students, skipped, duplicates: [...duplicates] };
}
