// The columns every versioned policy's table starts with and ends with (the money-out policy's, the leverage policy's): the
// version and its state, who drafted it and when (with its note), who published it and when. Times in UTC.
import { IsoTime } from "@/components/data-table/time";
import type { ListColumn } from "@/components/ui/list-table";
import { buttonClass } from "@/components/ui/styles";
import { errorText } from "@/lib/client/api";

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

/** What the actions column needs: who may do what, the publish-or-discard mutation, and where to say the outcome. */
type VersionActions = {
  me: string;
  canPublish: boolean;
  canDraft: boolean;
  decide: {
    isPending: boolean;
    mutateAsync: (v: { version: number; verb: "publish" | "discard" }) => Promise<unknown>;
  };
  say: (text: string) => void;
  /** What a published version does from now on, after "Published version N: ". */
  publishedWords: string;
};

/**
 * The last column of every versioned policy's table: a draft's Publish (never to its own drafter: the server refuses
 * it too) and Discard. Each outcome is said in words, a refusal with the server's reason.
 */
export function versionActions<V extends Version>(a: VersionActions): ListColumn<V> {
  const act = (version: number, verb: "publish" | "discard") =>
    a.decide
      .mutateAsync({ version, verb })
      .then(() =>
        a.say(
          verb === "publish" ? `Published version ${version}: ${a.publishedWords}` : `Discarded version ${version}.`,
        ),
      )
      .catch((e: unknown) => a.say(`${verb === "publish" ? "Not published" : "Not discarded"}: ${errorText(e)}`));
  return {
    header: "Actions",
    hiddenHeader: true,
    cell: (p) =>
      p.state !== "draft" ? null : (
        <div className="flex gap-2">
          {a.canPublish && p.draftedBy.toLowerCase() !== a.me.toLowerCase() ? (
            <button
              type="button"
              className={buttonClass("primary", "sm")}
              disabled={a.decide.isPending}
              onClick={() => void act(p.version, "publish")}
            >
              Publish version {p.version}
            </button>
          ) : null}
          {a.canDraft ? (
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              disabled={a.decide.isPending}
              onClick={() => void act(p.version, "discard")}
            >
              Discard
            </button>
          ) : null}
        </div>
      ),
  };
}
