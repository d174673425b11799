"use client";
// Which rows of a fixed-height list are in (or near) view of a scrolling box. Every row of the generic
// table is ROW_HEIGHT tall, so the window is arithmetic on scrollTop; a general virtualizer (measuring,
// smooth scrolling, flings) would add about 10 KiB gzipped to every list page for nothing.
import { useEffect, useState, type RefObject } from "react";

export type RowWindow = {
  /** Index of the first and last row to render (last < first when there are none). */
  first: number;
  last: number;
  /** Height of the spacers before and after the rendered rows, in px. */
  padTop: number;
  padBottom: number;
};

type View = { top: number; height: number };

/** Rows [first, last] cover the visible part of `scrollRef` plus `overscan` rows on either side. */
export function rowWindow(count: number, rowHeight: number, overscan: number, view: View): RowWindow {
  if (count <= 0) return { first: 0, last: -1, padTop: 0, padBottom: 0 };
  const first = Math.min(count - 1, Math.max(0, Math.floor(view.top / rowHeight) - overscan));
  const last = Math.min(count - 1, Math.max(first, Math.ceil((view.top + view.height) / rowHeight) - 1 + overscan));
  return { first, last, padTop: first * rowHeight, padBottom: (count - 1 - last) * rowHeight };
}

export function useRowWindow({
  scrollRef,
  count,
  rowHeight,
  overscan,
}: {
  scrollRef: RefObject<HTMLElement | null>;
  count: number;
  rowHeight: number;
  overscan: number;
}): RowWindow {
  const [view, setView] = useState<View>({ top: 0, height: 0 });

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const read = () =>
      setView((v) =>
        v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight },
      );
    el.addEventListener("scroll", read, { passive: true });
    // Also reports the first size as soon as it observes.
    const resize = new ResizeObserver(read);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", read);
      resize.disconnect();
    };
  }, [scrollRef]);

  return rowWindow(count, rowHeight, overscan, view);
}
