-- The baby-shelf arithmetic a prospectus states under General Instruction
-- I.B.6 of Form S-3 (issue 26 item 4): what may still be sold in the 12 months,
-- what was sold in the prior 12, and the day they are stated for. The stated
-- figures win over the one third of the public float computed from it.
ALTER TABLE "registrations"
    ADD COLUMN "baby_shelf_capacity_cents" BIGINT,
    ADD COLUMN "baby_shelf_sold_cents" BIGINT,
    ADD COLUMN "baby_shelf_as_of" DATE;
