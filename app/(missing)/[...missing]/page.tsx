import { notFound } from "next/navigation";

export const dynamic = "force-dynamic";

// Any path no page answers, for a signed-in person: the dashboard's own not-found page, inside the shell
// (its navigation and a way back), rather than the framework's bare one.
export default function MissingPage(): never {
  notFound();
}
