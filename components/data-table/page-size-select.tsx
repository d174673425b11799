import { SelectField } from "./select-field";

/** The "Page size" select of a paged view; a size typed into the URL outside `sizes` is still shown. */
export function PageSizeSelect({
  id,
  sizes,
  value,
  onChange,
}: {
  id: string;
  sizes: readonly number[];
  value: number;
  onChange: (size: number) => void;
}) {
  return (
    <SelectField
      id={id}
      label="Page size"
      value={value}
      options={sizes}
      onChange={(size) => size !== null && onChange(size)}
    />
  );
}
