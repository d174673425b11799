"use client";
// The import of a list file: the file is the request's body (streamed to the parser on the server), the format
// (sniffed when left on "from the file"), the list it goes to and its publish date in the query. A refusal is
// said under its field: a file that does not parse says at which line or element, and nothing changed.
import { useState } from "react";
import { callResource } from "@/lib/api/call";
import { screeningRoutes as s } from "@/lib/api/screening/routes";
import { LIST_FORMATS, LIST_FORMAT_LABELS, LIST_UPLOAD_MAX_BYTES } from "@/lib/api/screening/words";
import { ApiError, errorText } from "@/lib/client/api";
import { FormField, describedBy, inputClass } from "@/components/ui/form";
import { Form } from "@/components/ui/form-element";
import { buttonClass, noticeClass } from "@/components/ui/styles";

const FIELDS = ["file", "format", "list", "publishedAt"] as const;
type Field = (typeof FIELDS)[number];

export function ImportForm({ onDone }: { onDone: () => void }) {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [said, setSaid] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const file = data.get("file");
    const text = (k: Field) => String(data.get(k) ?? "").trim() || undefined;
    setSaid(null);
    if (!(file instanceof File) || file.size === 0) {
      setErrors({ file: "Choose the list's file" });
      return;
    }
    if (file.size > LIST_UPLOAD_MAX_BYTES) {
      setErrors({ file: `The file must be at most ${LIST_UPLOAD_MAX_BYTES / 2 ** 20} MiB` });
      return;
    }
    setErrors({});
    setBusy(true);
    const input = {
      format: text("format") as (typeof LIST_FORMATS)[number] | undefined,
      list: text("list"),
      publishedAt: text("publishedAt"),
      fileName: file.name.slice(0, 200),
    };
    callResource(s.import, { input, file })
      .then(
        (v) => {
          setSaid({
            tone: "ok",
            text:
              v.state === "waiting"
                ? `Imported as version #${v.id} of ${v.list}, waiting for a second person: it removes ` +
                  `${v.removedCount.toLocaleString("en-US")} address(es) the active version lists, so it is not ` +
                  "used until someone else confirms it below."
                : `Imported as version #${v.id} of ${v.list}, now active: ${v.addressCount.toLocaleString("en-US")} ` +
                  `addresses (SHA-256 ${v.sha256.slice(0, 12)}…); a rescreen is queued.`,
          });
          form.reset();
          onDone();
        },
        (e: unknown) => {
          const onFields = e instanceof ApiError ? (e.fieldErrors ?? {}) : {};
          const placed = Object.fromEntries(
            FIELDS.filter((f) => onFields[f]?.length).map((f) => [f, onFields[f]!.join("; ")]),
          );
          setErrors(placed);
          setSaid({
            tone: "error",
            text: `Not imported, nothing changed: ${Object.keys(placed).length ? "see the fields" : errorText(e)}`,
          });
        },
      )
      .finally(() => setBusy(false));
  };
  return (
    <Form className="grid gap-3 md:grid-cols-2" onSubmit={(e) => onSubmit(e.currentTarget)}>
      <FormField id="list-file" name="file" label="File" error={errors.file} words={(m) => m}>
        <input name="file" type="file" className={inputClass} {...describedBy("list-file", errors.file, false)} />
      </FormField>
      <FormField id="list-format" name="format" label="Format" error={errors.format}>
        <select
          name="format"
          className={inputClass}
          defaultValue=""
          {...describedBy("list-format", errors.format, false)}
        >
          <option value="">From the file</option>
          {LIST_FORMATS.map((f) => (
            <option key={f} value={f}>
              {LIST_FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </FormField>
      <FormField
        id="list-name"
        name="list"
        label="List"
        hint="Leave empty for the format's own: ofac-sdn, own-blocklist, opensanctions."
        error={errors.list}
      >
        <input name="list" className={inputClass} autoComplete="off" {...describedBy("list-name", errors.list, true)} />
      </FormField>
      <FormField
        id="list-published"
        name="publishedAt"
        label="Published (when the file does not say)"
        error={errors.publishedAt}
      >
        <input
          name="publishedAt"
          type="date"
          className={inputClass}
          {...describedBy("list-published", errors.publishedAt, false)}
        />
      </FormField>
      <div className="flex flex-wrap items-center gap-3 md:col-span-2">
        <button type="submit" className={buttonClass("primary")} disabled={busy}>
          {busy ? "Importing…" : "Import"}
        </button>
        {said ? (
          <p role={said.tone === "error" ? "alert" : "status"} className={noticeClass(said.tone)}>
            {said.text}
          </p>
        ) : null}
      </div>
    </Form>
  );
}
