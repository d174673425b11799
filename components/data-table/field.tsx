import type { ReactNode } from "react";
import { labelClass } from "@/components/ui/styles";

/**
 * A label above its control. The control is a sibling, not a child: a <select> inside its <label>
 * would lend its option texts to the label's name ("Symbol BTCUSDT ETHUSDT …").
 */
export function Field({
  id,
  label,
  className = "",
  children,
}: {
  id: string;
  label: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
    </div>
  );
}
