CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
CREATE TABLE "answer_buckets" (
    "drill" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "answers" INTEGER NOT NULL,
    PRIMARY KEY ("drill", "bucket")
) WITHOUT ROWID;
CREATE TABLE "answer_times" (
    "drill" TEXT NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "answers" INTEGER NOT NULL,
    PRIMARY KEY ("drill", "latency_ms")
) WITHOUT ROWID;
CREATE TABLE "attempts" (
   "id" INTEGER PRIMARY KEY,
   "session_id" TEXT NOT NULL REFERENCES "sessions"("id"),
   "drill" TEXT NOT NULL,
   "item" TEXT NOT NULL,
   "ruleset" TEXT NOT NULL,
   "prompt" TEXT NOT NULL,
   "data" TEXT NOT NULL,
   "expected" TEXT NOT NULL,
   "given" TEXT NOT NULL,
   "correct" INTEGER NOT NULL,
   "latency_ms" INTEGER NOT NULL,
   "target_ms" INTEGER,
   "verdict" TEXT NOT NULL,
   "ts" REAL NOT NULL
, source TEXT NOT NULL DEFAULT 'drill', pace TEXT NOT NULL DEFAULT 'unknown', distracted INTEGER NOT NULL DEFAULT 0 CHECK (distracted IN (0, 1)));
CREATE TABLE "daily" (
    "day" TEXT NOT NULL,
    "drill" TEXT NOT NULL,
    "ruleset" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "correct" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    PRIMARY KEY ("day", "drill", "ruleset")
) WITHOUT ROWID;
CREATE TABLE "day_times" (
    "day" TEXT NOT NULL,
    "drill" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "answers" INTEGER NOT NULL,
    PRIMARY KEY ("day", "drill", "bucket")
) WITHOUT ROWID;
CREATE TABLE "item_days" (
    "drill" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "ruleset" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "attempts_to_date" INTEGER NOT NULL,
    "correct_to_date" INTEGER NOT NULL,
    PRIMARY KEY ("drill", "item", "ruleset", "day")
) WITHOUT ROWID;
CREATE TABLE "journal" (
    "id" INTEGER PRIMARY KEY,
    "day" TEXT NOT NULL,
    "hours" REAL NOT NULL CHECK ("hours" > 0),
    "rounds" INTEGER NOT NULL CHECK ("rounds" >= 1),
    "result" TEXT NOT NULL,
    "ramp" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "plan_id" TEXT,
    "plan_ev" REAL,
    "plan_sd" REAL,
    "plan_bankroll" REAL,
    "recorded_ts" REAL NOT NULL,
    CHECK (("plan_id" IS NULL) = ("plan_ev" IS NULL) AND ("plan_ev" IS NULL) = ("plan_sd" IS NULL))
);
CREATE TABLE "review_items" (
   "drill" TEXT NOT NULL,
   "item" TEXT NOT NULL,
   "ruleset" TEXT NOT NULL,
   "card" TEXT NOT NULL,
   "due_ts" REAL NOT NULL,
   "standing" TEXT NOT NULL,
   "first_ts" REAL NOT NULL,
   "last_ts" REAL NOT NULL,
   "attempts" INTEGER NOT NULL,
   "correct" INTEGER NOT NULL,
   "last_correct" INTEGER NOT NULL,
   PRIMARY KEY ("drill", "item", "ruleset")
);
CREATE TABLE "sessions" (
   "id" TEXT PRIMARY KEY,
   "drill" TEXT NOT NULL,
   "ruleset" TEXT NOT NULL,
   "started_ts" REAL NOT NULL
);
CREATE TABLE "week_times" (
    "week" TEXT NOT NULL,
    "drill" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "answers" INTEGER NOT NULL,
    "correct" INTEGER NOT NULL,
    PRIMARY KEY ("week", "drill", "family", "source", "bucket")
) WITHOUT ROWID;
CREATE INDEX attempts_distracted ON attempts (drill, ts) WHERE distracted = 1;
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE INDEX idx_attempts_countdown_pace ON attempts (ts, latency_ms, json_array_length(data, '$.cards')) WHERE drill = 'countdown' AND correct = 1;
CREATE INDEX "idx_attempts_drill_latency_ms_ts"
    ON "attempts" ("drill", "latency_ms", "ts");
CREATE INDEX "idx_attempts_drill_ts"
    ON "attempts" ("drill", "ts");
CREATE INDEX "idx_attempts_source_drill_ts"
    ON "attempts" ("source", "drill", "ts");
CREATE INDEX idx_attempts_source_ts ON attempts (source, ts, correct);
CREATE INDEX "idx_attempts_ts"
    ON "attempts" ("ts");
CREATE INDEX idx_attempts_ts_figures ON attempts (ts, drill, source, latency_ms, correct, item);
CREATE INDEX idx_daily_drill ON daily (drill, attempts, correct, latency_ms);
CREATE INDEX idx_journal_day ON journal (day, id);
CREATE INDEX "idx_review_items_due_ts"
    ON "review_items" ("due_ts");
CREATE INDEX "idx_review_items_first_ts"
    ON "review_items" ("first_ts");
CREATE INDEX idx_review_items_stability ON review_items (json_extract(card, '$.stability'));
