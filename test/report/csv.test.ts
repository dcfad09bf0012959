import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { FINDINGS_CSV_COLUMNS, csvCell, csvRow, writeFindingsCsv } from '../../src/report/csv.js';

/**
 * A strict RFC 4180 reader, independent of the writer: records end with CRLF, a quoted field may
 * hold `,`, CR, LF and `""` (one quote). Anything else malformed throws, so a writer bug can't
 * hide behind a forgiving parser.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      if (field !== '') throw new Error(`quote inside a bare field at ${i}`);
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
      if (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i)) throw new Error(`text after closing quote at ${i}`);
    } else if (text[i] === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (text.startsWith('\r\n', i)) {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (text[i] === '\r' || text[i] === '\n') {
      throw new Error(`bare line break in an unquoted field at ${i}`);
    } else {
      field += text[i];
      i++;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('last record not terminated by CRLF');
  return records;
}

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    rule: 'tls-min-version',
    category: 'tls',
    severity: 'high',
    status: 'fail',
    account: { id: 'acc-1', name: 'Acme' },
    zone: { id: 'zone-1', name: 'example.com' },
    resource: { type: 'zone-setting', id: 'min_tls_version', name: 'Minimum TLS version' },
    message: 'Minimum TLS version is 1.0',
    messageId: 'too-low',
    data: { version: '1.0' },
    fingerprint: '0123456789abcdef0123456789abcdef',
    ...overrides,
  };
}

function capture(findings: Iterable<Finding>): { chunks: string[]; count: number; rows: string[][] } {
  const chunks: string[] = [];
  const count = writeFindingsCsv(findings, (chunk) => chunks.push(chunk));
  return { chunks, count, rows: parseCsv(chunks.join('')) };
}

describe('csvCell', () => {
  it('writes plain strings bare', () => {
    expect(csvCell('abc')).toBe('abc');
    expect(csvCell('hello world')).toBe('hello world');
    expect(csvCell("it's")).toBe("it's");
  });

  it('quotes a comma', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
  });

  it('quotes and doubles a double quote', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
  });

  it('quotes CR, LF and CRLF', () => {
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('writes null, undefined and the empty string as an empty field (they are indistinguishable)', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it.each([
    ['=', '=1+1', "'=1+1"],
    ['+', '+1', "'+1"],
    ['-', '-cmd|x', "'-cmd|x"],
    ['@', '@SUM(A1)', "'@SUM(A1)"],
    ['TAB', '\tx', "'\tx"],
    ['CR', '\rx', `"'\rx"`],
  ])('neutralises a leading %s', (_, input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('decides quoting after prefixing', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell("-cmd|' /C calc'!A0")).toBe("'-cmd|' /C calc'!A0");
    expect(csvCell('=a,b')).toBe(`"'=a,b"`);
    expect(csvCell('+a\nb')).toBe(`"'+a\nb"`);
  });

  it('leaves formula characters that are not first alone', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('1+1')).toBe('1+1');
    expect(csvCell('x-y')).toBe('x-y');
    expect(csvCell('user@example.com')).toBe('user@example.com');
    expect(csvCell('a\tb')).toBe('a\tb');
    expect(csvCell(' =1+1')).toBe(' =1+1');
  });

  it('writes numbers and booleans with String() and never prefixes them', () => {
    expect(csvCell(42)).toBe('42');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
  });

  it('prefixes a string that looks like a negative number (only numbers are trusted)', () => {
    expect(csvCell('-5')).toBe("'-5");
  });

  it('keeps lone surrogates, tabs and line breaks as they are', () => {
    expect(csvCell('a\uD800b')).toBe('a\uD800b');
    expect(csvCell('a\tb')).toBe('a\tb');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  // Issue 24: a right-to-left override in an invite made a spreadsheet show the cell reversed.
  it('writes control, bidirectional and invisible characters as visible escapes', () => {
    expect(csvCell('a\u0000b\u001bc')).toBe('a\\u0000b\\u001bc');
    expect(csvCell('invoice\u202egpj.exe')).toBe('invoice\\u202egpj.exe');
    expect(csvCell('pay\u200bpal.example \u2066x\u2069 \ufeff\u{e0041}')).toBe('pay\\u200bpal.example \\u2066x\\u2069 \\ufeff\\u{e0041}');
    // The escape is what a formula check sees: an override before "=" does not hide the formula.
    expect(csvCell('\u202e=1+1')).toBe('\\u202e=1+1');
  });
});

describe('csvRow', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvRow(['a', 1, true, null, undefined, 'b,c'])).toBe('a,1,true,,,"b,c"\r\n');
  });

  it('writes an empty row as just the terminator', () => {
    expect(csvRow([])).toBe('\r\n');
  });
});

describe('writeFindingsCsv', () => {
  it('writes the header first, with no BOM', () => {
    const { chunks, count } = capture([]);
    expect(count).toBe(0);
    expect(chunks).toEqual([`${FINDINGS_CSV_COLUMNS.join(',')}\r\n`]);
    expect(chunks[0]?.charCodeAt(0)).not.toBe(0xfeff);
  });

  it('writes a finding without a waiver with empty waiver cells', () => {
    const { rows, count } = capture([finding()]);
    expect(count).toBe(1);
    expect(rows).toEqual([
      [...FINDINGS_CSV_COLUMNS],
      [
        'tls-min-version',
        'tls',
        'high',
        'fail',
        'acc-1',
        'Acme',
        'zone-1',
        'example.com',
        'zone-setting',
        'min_tls_version',
        'Minimum TLS version',
        'Minimum TLS version is 1.0',
        '0123456789abcdef0123456789abcdef',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ]);
  });

  it("gives each failing row the rule's remediation, and a passing one none", () => {
    const { rows } = capture([finding({ rule: 'certificate-expiry' }), finding({ rule: 'certificate-expiry', status: 'pass' })]);
    const column = FINDINGS_CSV_COLUMNS.indexOf('remediation');
    expect(rows[1]?.[column]).toMatch(/^For a managed certificate, find out why the renewal did not happen/);
    expect(rows[2]?.[column]).toBe('');
  });

  // Issue 32 item 6: what a verdict is evidence for, passes included; a rule mapped to no control has none.
  it('gives every row the controls its rule maps to, passing rows too', () => {
    const { rows } = capture([finding({ rule: 'certificate-expiry' }), finding({ rule: 'certificate-expiry', status: 'pass' }), finding({ rule: 'development-mode-on' })]);
    const column = FINDINGS_CSV_COLUMNS.indexOf('controls');
    expect(column).toBe(FINDINGS_CSV_COLUMNS.length - 2);
    expect(rows[1]?.[column]).toBe('PCI DSS 4.2.1; NIST SP 800-53 SC-17');
    expect(rows[2]?.[column]).toBe('PCI DSS 4.2.1; NIST SP 800-53 SC-17');
    expect(rows[3]?.[column]).toBe('');
  });

  it('writes null account, zone and resource name as empty cells, and the waiver', () => {
    const { rows } = capture([
      finding({
        rule: 'org-admins',
        category: 'scan',
        severity: 'info',
        status: 'waived',
        account: null,
        zone: null,
        resource: { type: 'organisation', id: 'org', name: null },
        message: 'waived',
        waiver: { reason: 'accepted risk, see ticket', owner: 'sec@example.com', expires: '2030-01-01', index: 3 },
      }),
    ]);
    expect(rows[1]).toEqual([
      'org-admins',
      'scan',
      'info',
      'waived',
      '',
      '',
      '',
      '',
      'organisation',
      'org',
      '',
      'waived',
      '0123456789abcdef0123456789abcdef',
      'accepted risk, see ticket',
      'sec@example.com',
      '2030-01-01',
      '',
      '',
      '',
    ]);
  });

  it('round-trips hostile strings through an RFC 4180 reader', () => {
    const hostile = finding({
      account: { id: '=cmd|\' /C calc\'!A0', name: 'Åsa "the admin", Ltd.' },
      zone: { id: 'z\r\n2', name: '日本語.example' },
      resource: { type: 'dns-record', id: '@', name: '<script>alert(1)</script>' },
      message: 'line one\nline two\r\nline three | piped',
      waiver: { reason: '+SUM(1,2)', owner: '\towner', expires: '-2030', index: 1 },
    });
    const { rows, count } = capture([hostile, finding({ status: 'pass' })]);
    expect(count).toBe(2);
    expect(rows).toHaveLength(3);
    const cells = Object.fromEntries(FINDINGS_CSV_COLUMNS.map((column, i) => [column, rows[1]?.[i]]));
    expect(cells).toEqual({
      rule: 'tls-min-version',
      category: 'tls',
      severity: 'high',
      status: 'fail',
      account_id: "'=cmd|' /C calc'!A0",
      account_name: 'Åsa "the admin", Ltd.',
      zone_id: 'z\r\n2',
      zone_name: '日本語.example',
      resource_type: 'dns-record',
      resource_id: "'@",
      resource_name: '<script>alert(1)</script>',
      message: 'line one\nline two\r\nline three | piped',
      fingerprint: '0123456789abcdef0123456789abcdef',
      waiver_reason: "'+SUM(1,2)",
      waiver_owner: "'\towner",
      waiver_expires: "'-2030",
      remediation: '',
      controls: '',
      data_read_on: '',
    });
    expect(rows[2]?.[3]).toBe('pass');
  });

  // Issue 30 item 8: each finding's zone shows when its data was last read.
  it('ends every row with when its zone\'s data was last read in full, and none for a finding on no zone', () => {
    const chunks: string[] = [];
    const readOn = (zoneId: string) => (zoneId === 'zone-1' ? '2026-11-20T02:00:00.000Z' : '2026-11-27T02:00:00.000Z');
    writeFindingsCsv([finding(), finding({ zone: { id: 'zone-2', name: 'example.org' } }), finding({ zone: null })], (c) => chunks.push(c), readOn);
    const rows = parseCsv(chunks.join(''));
    const column = FINDINGS_CSV_COLUMNS.indexOf('data_read_on');
    expect(column).toBe(FINDINGS_CSV_COLUMNS.length - 1);
    expect(rows.slice(1).map((r) => r[column])).toEqual(['2026-11-20T02:00:00.000Z', '2026-11-27T02:00:00.000Z', '']);
  });

  it('streams: one write per row, and reads the findings lazily', () => {
    const chunks: string[] = [];
    const seen: number[] = [];
    function* generate(): Generator<Finding> {
      for (let i = 0; i < 5; i++) {
        // By the time the generator yields finding i, the header and findings 0..i-1 are written.
        seen.push(chunks.length);
        yield finding({ rule: `rule-${i}` });
      }
    }
    const count = writeFindingsCsv(generate(), (chunk) => chunks.push(chunk));
    expect(count).toBe(5);
    expect(chunks).toHaveLength(6);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    for (const chunk of chunks) expect(parseCsv(chunk)).toHaveLength(1);
    expect(parseCsv(chunks.join('')).map((row) => row[0])).toEqual(['rule', 'rule-0', 'rule-1', 'rule-2', 'rule-3', 'rule-4']);
  });
});

describe('parseCsv (the test reader)', () => {
  it('rejects malformed input so it cannot mask writer bugs', () => {
    expect(() => parseCsv('a\nb\r\n')).toThrow();
    expect(() => parseCsv('"a"b\r\n')).toThrow();
    expect(() => parseCsv('"a\r\n')).toThrow();
    expect(() => parseCsv('a,b')).toThrow();
    expect(parseCsv('"a""b","c\r\nd",\r\n')).toEqual([['a"b', 'c\r\nd', '']]);
  });
});
