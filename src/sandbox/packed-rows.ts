/**
 * A list of flat records (search rows: strings, numbers, booleans) packed by the host into a few
 * flat arrays, each distinct string once, so that crossing to the sandbox worker clones a handful of
 * arrays instead of an object per row, and the worker can build each row only when the script
 * first touches it (lazy-rows.ts). Anything else crosses as it is.
 */

/** Cell kinds in `tags`. */
export const CELL_STRING = 0;
export const CELL_NUMBER = 1;
export const CELL_TRUE = 2;
export const CELL_FALSE = 3;

export interface PackedRows {
  readonly count: number;
  /** Field names, each once; cells name theirs by index. */
  readonly keys: readonly string[];
  /** String values, each once; string cells hold their index. */
  readonly strings: readonly string[];
  /** Per string: 1 when more than one cell holds it (worth making once for the whole run). */
  readonly repeated: Uint8Array;
  /** Row i's cells are [starts[i], starts[i + 1]), in the record's own key order. */
  readonly starts: Int32Array;
  readonly cellKeys: Int32Array;
  readonly tags: Uint8Array;
  /** The number, or for a string cell the index of its string. */
  readonly values: Float64Array;
  /** The list's own named fields (`truncated`), flat like a row, or null. */
  readonly fields: Readonly<Record<string, string | number | boolean | null | undefined>> | null;
}

/** Lists shorter than this cross as they are: packing saves nothing on a handful of rows. */
const MIN_PACKED_ROWS = 2;

function isFlatRecord(value: unknown): value is Readonly<Record<string, string | number | boolean | null | undefined>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    const cell = (value as Record<string, unknown>)[key];
    if (cell !== null && cell !== undefined && typeof cell !== 'string' && typeof cell !== 'number' && typeof cell !== 'boolean') return false;
  }
  return true;
}

/** The list packed, or null when it is not a list of flat records (it then crosses as it is). */
export function packRows(value: unknown): PackedRows | null {
  if (!Array.isArray(value) || value.length < MIN_PACKED_ROWS) return null;
  const list = value as readonly unknown[];
  for (const row of list) if (!isFlatRecord(row)) return null;
  const keyIds = new Map<string, number>();
  const stringIds = new Map<string, number>();
  const uses: number[] = [];
  const starts = new Int32Array(list.length + 1);
  const cellKeys: number[] = [];
  const tags: number[] = [];
  const values: number[] = [];
  list.forEach((row, i) => {
    starts[i] = cellKeys.length;
    for (const key in row as Record<string, unknown>) {
      const cell = (row as Record<string, unknown>)[key];
      if (cell === null || cell === undefined) continue;
      let keyId = keyIds.get(key);
      if (keyId === undefined) keyIds.set(key, (keyId = keyIds.size));
      cellKeys.push(keyId);
      if (typeof cell === 'string') {
        let id = stringIds.get(cell);
        if (id === undefined) {
          stringIds.set(cell, (id = stringIds.size));
          uses.push(0);
        }
        uses[id]!++;
        tags.push(CELL_STRING);
        values.push(id);
      } else if (typeof cell === 'number') {
        tags.push(CELL_NUMBER);
        values.push(cell);
      } else {
        tags.push(cell ? CELL_TRUE : CELL_FALSE);
        values.push(0);
      }
    }
  });
  starts[list.length] = cellKeys.length;
  const named = Object.keys(list).slice(list.length);
  const fields = Object.fromEntries(named.map((key) => [key, (list as unknown as Record<string, unknown>)[key]]));
  if (!isFlatRecord(fields)) return null;
  return {
    count: list.length,
    keys: [...keyIds.keys()],
    strings: [...stringIds.keys()],
    repeated: Uint8Array.from(uses, (n) => (n > 1 ? 1 : 0)),
    starts,
    cellKeys: Int32Array.from(cellKeys),
    tags: Uint8Array.from(tags),
    values: Float64Array.from(values),
    fields: named.length === 0 ? null : fields,
  };
}
