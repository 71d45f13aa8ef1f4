import { MesosCodecError } from './mesos-codec-error';

/**
 * A Mesos int64 or uint64 in model form, exact: a `number` when it is a safe integer
 * (|v| ≤ 2^53 − 1: durations, ports), a `bigint` beyond (a `TimeInfo` since the epoch is
 * ≈1.8e18 ns, where a double holds only every 256th nanosecond). Read {@link int64ToBigInt};
 * write either form.
 */
export type Int64 = number | bigint;

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** The model form of an exact 64-bit integer (see {@link Int64}); throws MesosCodecError outside int64 ∪ uint64. */
export function int64Of(value: bigint, path: string): Int64 {
  if (value < INT64_MIN || value > UINT64_MAX) throw new MesosCodecError('expected a 64-bit integer', path);
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value;
}

/** An {@link Int64} as a bigint, exactly (a `number` must be an integer). */
export function int64ToBigInt(value: Int64): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}

/** Whether a model value is a writable 64-bit integer: an integral `number` or an in-range `bigint`. */
export function isInt64(value: unknown): value is Int64 {
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= UINT64_MAX;
}
