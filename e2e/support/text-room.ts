// Whether a control shows its text whole: staff read a cut word as another ("Internal transfer (U").
import type { Locator } from "@playwright/test";

/**
 * The room left, in CSS pixels, inside a control for its text: a select's chosen option, or an input's
 * placeholder. Negative when the text is cut at the control's edge.
 */
export function textRoom(control: Locator, which: "selected" | "placeholder"): Promise<number> {
  return control.evaluate((el: HTMLSelectElement | HTMLInputElement, w) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text =
      w === "selected"
        ? ((el as HTMLSelectElement).selectedOptions[0]?.text ?? "")
        : (el as HTMLInputElement).placeholder;
    const inside = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return inside - ctx.measureText(text).width;
  }, which);
}
