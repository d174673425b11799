// The columns every versioned policy's table starts with (the money-out policy's, the leverage policy's): the
// version and its state, who drafted it and when (with its note), who published it and when. Times in UTC.
import { IsoTime } from "@/components/data-table/time";
import type { ListColumn } from "@/components/ui/list-table";

type Version = {
  version: number;
  state: string;
  draftedAt: string;
  draftedBy: string;
  note?: string | null;
  publishedAt: string | null;
  publishedBy: string | null;
};

export function versionColumns<V extends Version>(): ListColumn<V>[] {
  return [
    { header: "Version", names: true, cell: (p) => `${p.version} (${p.state})` },
    {
      header: "Drafted",
      cell: (p) => (
        <>
          <IsoTime iso={p.draftedAt} /> by {p.draftedBy}
          {p.note ? <span className="block text-xs">“{p.note}”</span> : null}
        </>
      ),
    },
    {
      header: "Published",
      cell: (p) =>
        p.publishedAt ? (
          <>
            <IsoTime iso={p.publishedAt} /> by {p.publishedBy}
          </>
        ) : (
          "—"
        ),
    },
  ];
}
