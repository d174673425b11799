import "server-only";
// Text split into lines as it arrives, for the line formats (CSV, JSON lines): each whole line goes to
// `line(text, number)`, the last one (without its newline) at the end. A line longer than `maxLine` is refused
// where it is, so a file without newlines cannot fill the memory.
import { ListParseError, type ChunkParser } from "./types";

export function lineParser(line: (text: string, n: number) => void, maxLine = 1 << 20): ChunkParser {
  let rest = "";
  let n = 0;
  return {
    write(chunk) {
      let start = 0;
      const text = rest + chunk;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
        n++;
        line(text.slice(start, nl).replace(/\r$/, ""), n);
        start = nl + 1;
      }
      rest = text.slice(start);
      if (rest.length > maxLine) throw new ListParseError(`a line longer than ${maxLine} characters`, { line: n + 1 });
    },
    end() {
      if (rest.length > 0) line(rest.replace(/\r$/, ""), ++n);
      rest = "";
    },
  };
}
