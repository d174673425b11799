/** A select's options, one per value, each said in `words` (the value itself unless said). */
export function Options<T extends string | number>({
  values,
  words = String,
}: {
  values: readonly T[];
  words?: (value: T) => string;
}) {
  return values.map((v) => (
    <option key={v} value={v}>
      {words(v)}
    </option>
  ));
}
