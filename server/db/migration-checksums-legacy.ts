import "server-only";

// Checksums that databases migrated before this release recorded for migrations whose comments were reworded
// since: the SHA-256 of the file's bytes as they were then. Each names the statements it was recorded for
// (migrationChecksum of today's text), so a later change to a statement is still reported. Anyone can check an
// entry: `git show <an earlier commit>:server/db/migrations/<file> | sha256sum`.

export const LEGACY_CHECKSUMS: Readonly<Record<string, { statements: string; raw: readonly string[] }>> = {
  "0002_staff_users.sql": {
    statements: "fabb2dca89cb36a246c99acad7e09b83441b03bcca4c10c52969f3ae571228a2",
    raw: ["3a3decde2fe06b6eff19c91f893551dd0fc64950681ad835aec47e815d0d4fae"],
  },
  "0003_withdrawal_transitions.sql": {
    statements: "2b2852bd2367fdee5e6d787443a132ece54706921a94b20b9f5570ede4523be8",
    raw: ["3058a1689a55236fda4991049416e39b65f8b6bdd36982c4830b861710a36c6c"],
  },
  "0004_security.sql": {
    statements: "29a0438e42856802ae6b2a9ab7e5356de33f88f298f200190e08da5d50b59911",
    raw: ["479c1325b84e1d20afdd39f84883609e56052408e941d0a60b4d003cb50092a8"],
  },
  "0005_mfa.sql": {
    statements: "d1067d5a46e8f0a2808743a9de725b78c152cc9a043b13f25cbac7a284b2613d",
    raw: ["7cef7246fc64a37976e770fcaa2def14f62e7c7b4b4edb446246daeb626bc453"],
  },
  "0006_ledger.sql": {
    statements: "ff5dba0e794b1471e804f38422ea92eab90a521e3b61d74d007b8db7388431af",
    raw: ["7b22079511a3e807ff0fbbcfc63cfeccecb711252df2c3e79bc1b5a71ef0bea5"],
  },
  "0009_withdrawals.sql": {
    statements: "d484cbcd4935d6d1c4b2ef973c1011c607e9de47882be5468076f5a762b5016f",
    raw: ["4cc44446f34b3cb67f9073a6d79ef262e7d8032efe9480d6738668444496b324"],
  },
  "0010_daily.sql": {
    statements: "a54119c09ae0822885ab18cf887497f4bea0a38f4f7ab5e71a47dc4cd6e08dab",
    raw: ["4e03eb5369422e7b499a14ba051b588899be7fdfd8a62f4dfb7cd8383686f0c5"],
  },
  "0011_ledger_retention.sql": {
    statements: "861bff023f9d1c83192f9d7dcea7d62388138aac0fc0db1d8e381154e973adca",
    raw: ["5427e79d195b43684d10f2e00323248d2d1517792493d327e592a01237aee992"],
  },
  "0012_ledger_trades.sql": {
    statements: "7775bab2d5cdb48bbd109af333a881e49c40303165349b3e6df98f7457fa2f42",
    raw: ["5f7255765f0abaaee3e692dffa9d608e76b152fc964e60a305efb0f13e59f403"],
  },
  "0013_registry_by_name.sql": {
    statements: "cd79d594b7391d1f665d647f864e8fd9ed9df961b3211bf0baf01aee16716a0e",
    raw: ["86ac02d12785de757bb62fc781004bc7593aa2dde195e121c69b1c60ff33240c"],
  },
  "0014_registry_search_statistics.sql": {
    statements: "bca17ee9c445c0b5772582f9693053b65eacbadb65534cf839a715ea7a13b5bf",
    raw: ["65c0b64774ff6277100918a89ef027861f6d08758115c3f790ff96795ba3e81d"],
  },
  "0015_ledger_calls_per_check.sql": {
    statements: "cb99d99c8525bf04ecabbe86d7af625afe29493fb5edf257fc56e186419b78cd",
    raw: ["c03c5a3a67b54b763301a0f28f57a62ca2566bfb83d02498be2012413f85f94f"],
  },
};
