import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";
import { withSessionEndNote } from "@/server/auth/session-end";

const handler = withSessionEndNote(NextAuth(authOptions));

export { handler as GET, handler as POST };
