// Order statistics of a sample, nearest-rank.

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);
export const p90 = (values: readonly number[]): number => quantile(values, 0.9);

/** "12.3 ms (p90 14.0)", or a dash when nothing was measured. */
export function ms(values: readonly number[], digits = 1): string {
  if (values.length === 0) return '—';
  return `${median(values).toFixed(digits)} ms (p90 ${p90(values).toFixed(digits)})`;
}
