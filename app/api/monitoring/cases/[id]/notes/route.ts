import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { addNote } from "@/server/monitoring/case";

export const POST = apiRoute(m.note, ({ db, session, params, input }) => addNote(db, session, params.id, input.body));
