// A small hand-written SVG bar chart. Bar values are decimal strings (counts or exact sums); heights
// are ratios taken with big.js, labels show the values as computed.
import Big from "big.js";
import { groupDecimal } from "@/lib/format";

export type Bar = { label: string; value: string };

const W = 640;
const H = 160;
const PAD = { top: 16, bottom: 24, side: 4 };

export function BarChart({ bars, title, unit }: { bars: readonly Bar[]; title: string; unit?: string }) {
  if (bars.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{title}: nothing to draw.</p>;
  let max = new Big(0);
  let top: Bar = bars[0] as Bar;
  for (const b of bars) {
    if (new Big(b.value).gt(max)) {
      max = new Big(b.value);
      top = b;
    }
  }
  const slot = (W - 2 * PAD.side) / bars.length;
  const plot = H - PAD.top - PAD.bottom;
  const u = unit ? ` ${unit}` : "";
  const summary =
    `${title}: ${bars.length} bars from ${bars[0]?.label} to ${bars.at(-1)?.label}; highest ` +
    `${groupDecimal(top.value)}${u} on ${top.label}`;
  const every = Math.max(1, Math.ceil(bars.length / 8));
  return (
    <figure className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <figcaption className="mb-1 flex flex-wrap justify-between gap-2 text-xs text-slate-700 dark:text-slate-300">
        <span className="font-semibold">{title}</span>
        <span className="tabular">
          max {groupDecimal(max.toFixed())}
          {u}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="h-40 w-full">
        {bars.map((b, i) => {
          const h = max.eq(0) ? 0 : new Big(b.value).div(max).toNumber() * plot;
          const x = PAD.side + i * slot;
          return (
            <g key={b.label}>
              <rect
                x={x + slot * 0.1}
                width={slot * 0.8}
                y={H - PAD.bottom - h}
                height={h}
                className="fill-blue-600 dark:fill-blue-400"
              >
                <title>{`${b.label}: ${groupDecimal(b.value)}${u}`}</title>
              </rect>
              {i % every === 0 ? (
                <text
                  x={x + slot / 2}
                  y={H - 8}
                  textAnchor="middle"
                  className="fill-slate-600 text-[10px] dark:fill-slate-400"
                >
                  {b.label.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
