import "server-only";
// Sanctions and block lists as data: import (streamed, one transaction, a version per import), the versions
// and which was active when, and the lookup every screening calls.
export { DEFAULT_LIST, importList, ListTooLargeError, sniffFormat, type ImportOptions } from "./import";
export { importListAudited } from "./import-audited";
export { screenAddress, type ScreeningMatch, type ScreeningResult } from "./screen";
export { ListParseError, LIST_FORMATS, type ListEntry, type ListFormat, type ParseWhere } from "./types";
export { activeVersions, listVersions, removedAddresses, versionById, type ListVersion } from "./versions";
export { confirmVersion, declineVersion } from "./pending";
export { runRescreen, type RescreenChange, type RescreenReport } from "./rescreen";
export { queueRescreen, rescreensDue } from "./rescreen-queue";
export { recordScreening, screenAndRecord, type ScreeningOccasion, type ScreeningSubject } from "./record";
