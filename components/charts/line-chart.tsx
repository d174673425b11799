// A small hand-written SVG line chart (no chart library: the read pages stay light). Values are the
// platform's decimal strings; big.js places them on the axis, the labels show them exactly as sent.
import Big from "big.js";
import { groupDecimal, formatUtc } from "@/lib/format";

export type LinePoint = { t: number; value: string };

const W = 640;
const H = 160;
const PAD = { top: 12, right: 12, bottom: 22, left: 12 };

export function LineChart({ points, title, unit }: { points: readonly LinePoint[]; title: string; unit?: string }) {
  const usable = points.filter((p) => /^-?\d+(\.\d+)?$/.test(p.value));
  if (usable.length < 2) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">{title}: not enough points to draw.</p>;
  }
  const sorted = [...usable].sort((a, b) => a.t - b.t);
  let lo = sorted[0] as LinePoint;
  let hi = lo;
  for (const p of sorted) {
    if (new Big(p.value).lt(lo.value)) lo = p;
    if (new Big(p.value).gt(hi.value)) hi = p;
  }
  const t0 = (sorted[0] as LinePoint).t;
  const t1 = (sorted.at(-1) as LinePoint).t;
  const span = new Big(hi.value).minus(lo.value);
  const x = (t: number) => PAD.left + (t1 === t0 ? 0 : ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right));
  // Pixel positions only: the ratio is taken in decimal, then rounded to a coordinate.
  const y = (v: string) =>
    H - PAD.bottom - (span.eq(0) ? 0.5 : new Big(v).minus(lo.value).div(span).toNumber()) * (H - PAD.top - PAD.bottom);
  const d = sorted.map((p, i) => `${i ? "L" : "M"}${x(p.t).toFixed(1)},${y(p.value).toFixed(1)}`).join("");
  const u = unit ? ` ${unit}` : "";
  const summary =
    `${title}: ${sorted.length} points from ${formatUtc(t0)} to ${formatUtc(t1)}; ` +
    `low ${groupDecimal(lo.value)}${u} at ${formatUtc(lo.t)}, high ${groupDecimal(hi.value)}${u} at ${formatUtc(hi.t)}`;
  return (
    <figure className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <figcaption className="mb-1 flex flex-wrap justify-between gap-2 text-xs text-slate-700 dark:text-slate-300">
        <span className="font-semibold">{title}</span>
        <span className="tabular">
          low {groupDecimal(lo.value)} · high {groupDecimal(hi.value)}
          {u}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="h-40 w-full" preserveAspectRatio="none">
        {/* Dashed guides at the highest and the lowest value. */}
        {[hi, lo].map((p, i) => (
          <line
            key={i}
            x1={PAD.left}
            x2={W - PAD.right}
            y1={y(p.value)}
            y2={y(p.value)}
            className="stroke-slate-200 dark:stroke-slate-700"
            strokeDasharray="4 4"
          />
        ))}
        <path
          d={d}
          fill="none"
          className="stroke-blue-700 dark:stroke-blue-400"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <div className="flex justify-between text-[11px] text-slate-600 dark:text-slate-400" aria-hidden="true">
        <span>{formatUtc(t0)}</span>
        <span>{formatUtc(t1)}</span>
      </div>
    </figure>
  );
}
