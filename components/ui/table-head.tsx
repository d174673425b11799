/**
 * The header row of a small table drawn by hand (totals, a card's rows): one column header each, `right` the
 * ones aligned right (numbers), `cell` the class of each header cell.
 */
export function TableHead({ columns, right = [], className, cell }: { columns: readonly string[]; right?: readonly string[]; className?: string; cell: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((h, i) => (
          <th key={`${i}-${h}`} scope="col" className={right.includes(h) ? `${cell} text-right` : cell}>
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}
