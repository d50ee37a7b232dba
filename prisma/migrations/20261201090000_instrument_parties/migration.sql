-- The parties of a dilution instrument's issue (issue 26 item 3): the holders a
-- filing names as its purchasers (a JSON array of at most five names) and the
-- placement agent or underwriter of the offering it was issued in, each null
-- when no filing names them.
ALTER TABLE "dilution_instruments"
    ADD COLUMN "holders" JSONB,
    ADD COLUMN "placement_agent" TEXT;
