/**
 * Pure helpers of bench/lighthouse.ts: the CPU slowdown that makes this machine a mid-tier phone, and medians.
 */

/**
 * Lighthouse's mobile preset slows the CPU down 4× on the assumption of a fast desktop (benchmarkIndex ~1500). On a
 * slower host the same 4× models a phone slower than Lighthouse's target. Lighthouse's throttling documentation
 * ("Calibrating the CPU slowdown") points to its CPU throttling calculator, whose piecewise-linear mapping from the
 * benchmarkIndex of the report to the multiplier that targets a mid-tier mobile device this is:
 * 2000 → 6×, 1300 → 3×, 800 → 2×, 150 → 1×. Below 150 the host is itself slower than that phone: no slowdown (1×).
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 150) return 1;
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  return 1 + (benchmarkIndex - 150) / 650;
}

/** The middle value (the lower of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** index.html without its scripts and module preloads: the first screen and its styles, and nothing the app runs. */
export function withoutScripts(html: string): string {
  return html.replace(/\s*<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
}
