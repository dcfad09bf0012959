/**
 * Reading untrusted dataset JSON field by field, so that every mistake is reported with the path
 * of the offending field (`accounts[1].zones[0].plan: expected one of ...`) and typos in key names
 * are caught instead of silently dropping data.
 */
export class DatasetError extends Error {
  readonly code = 'EMULATOR_DATASET';
  constructor(message: string) {
    super(message);
    this.name = 'DatasetError';
  }
}

export class Fields {
  private readonly read = new Set<string>();

  private constructor(private readonly obj: Record<string, unknown>, readonly path: string) {}

  static of(value: unknown, path: string): Fields {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new DatasetError(`${path || 'dataset'}: expected an object`);
    }
    return new Fields(value as Record<string, unknown>, path);
  }

  at(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  has(key: string): boolean {
    return this.obj[key] !== undefined;
  }

  fail(key: string, problem: string): never {
    throw new DatasetError(`${this.at(key)}: ${problem}`);
  }

  raw(key: string): unknown {
    this.read.add(key);
    return this.obj[key];
  }

  str(key: string, fallback?: string): string {
    const v = this.raw(key);
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'string') this.fail(key, v === undefined ? 'is required' : 'expected a string');
    return v;
  }

  nullableStr(key: string, fallback: string | null): string | null {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (v !== null && typeof v !== 'string') this.fail(key, 'expected a string or null');
    return v;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(key, 'expected true or false');
    return v;
  }

  int(key: string, fallback: number, min = -Infinity, max = Infinity): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.fail(key, `expected a whole number from ${min} to ${max}`);
    }
    return v;
  }

  nullableInt(key: string, fallback: number | null, min: number, max: number): number | null {
    return this.raw(key) === null ? null : this.int(key, fallback as number, min, max);
  }

  oneOf<T extends string>(key: string, values: readonly T[], fallback?: T): T {
    const v = this.raw(key);
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'string' || !values.includes(v as T)) {
      this.fail(key, `expected one of ${values.join(', ')}`);
    }
    return v as T;
  }

  strArray(key: string, fallback: string[]): string[] {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) this.fail(key, 'expected an array of strings');
    return [...(v as string[])];
  }

  array(key: string): Array<{ value: unknown; path: string }> {
    const v = this.raw(key);
    if (v === undefined) return [];
    if (!Array.isArray(v)) this.fail(key, 'expected an array');
    return v.map((value, i) => ({ value, path: `${this.at(key)}[${i}]` }));
  }

  /** Each object of an array field, read in turn (so the first mistake in order is the one reported). */
  each<T>(key: string, read: (item: Fields, index: number) => T): T[] {
    return this.array(key).map(({ value, path }, i) => read(Fields.of(value, path), i));
  }

  /** An object field (present: check `has` first). */
  object(key: string): Fields {
    return Fields.of(this.raw(key), this.at(key));
  }

  stringMap(key: string): Record<string, string> {
    const v = this.raw(key);
    if (v === undefined) return {};
    if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.values(v).some((s) => typeof s !== 'string')) {
      this.fail(key, 'expected an object of strings');
    }
    return { ...(v as Record<string, string>) };
  }

  /** Call after reading: any key never read is a typo or an unsupported field. Returns `result`, what was read. */
  done(): void;
  done<T>(result: T): T;
  done<T>(result?: T): T | undefined {
    for (const key of Object.keys(this.obj)) {
      if (!this.read.has(key)) throw new DatasetError(`${this.at(key)}: unknown field (see docs/dataset-format.md)`);
    }
    return result;
  }
}
