import { Field } from "./field";
import { controlClass } from "./styles";

/**
 * The "Page size" select of a paged view. A size that is not among `sizes` (typed into the URL) is
 * still shown as selected, so the control never claims a size the table is not using.
 */
export function PageSizeSelect({ id, sizes, value, onChange }: { id: string; sizes: readonly number[]; value: number; onChange: (size: number) => void }) {
  const options = sizes.includes(value) ? sizes : [...sizes, value];
  return (
    <Field id={id} label="Page size">
      <select id={id} className={controlClass} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {options.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </Field>
  );
}
