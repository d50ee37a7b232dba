/**
 * The database structure two ways, in one comparable shape:
 *
 * - `expectedShape(parsePrismaSchema(text))`: what `schema.prisma` says the
 *   PostgreSQL database must look like, following Prisma Migrate's own
 *   conventions (type mapping, constraint names, default referential actions,
 *   nullable scalar lists).
 * - `introspect(driver)`: what a database really holds, read from pg_catalog.
 *
 * `diffShapes(expected, actual)` lists every difference as one readable line,
 * e.g. `organizations.balance_nanos: schema says BIGINT NOT NULL DEFAULT 0,
 * migrations give BIGINT NULL`.
 *
 * The parser reads the subset of the Prisma schema language this project uses
 * (models, enums, @map/@@map, @id/@@id, @unique/@@unique, @@index, @default,
 * @db.*, @updatedAt, relations with fields/references/onDelete/onUpdate, `?`
 * and `[]`). Anything else is refused with an error naming the construct,
 * never silently skipped: extend this file when the schema grows.
 *
 * Not compared (schema.prisma cannot express them): triggers, functions, check
 * constraints, sequences' own settings, column order, privileges.
 */
import type { SqlDriver } from "@/lib/db/sql";

// ───────────────────────────── the shape ─────────────────────────────

export interface ColumnShape {
  /** Canonical SQL type: `TEXT`, `UUID`, `TIMESTAMPTZ(3)`, `TEXT[]`, `"role"` (an enum) … */
  type: string;
  nullable: boolean;
  /** Canonical default expression (see normalizeSqlExpression), or null. */
  default: string | null;
}

export interface TableShape {
  name: string;
  columns: Map<string, ColumnShape>;
  primaryKey: { name: string; columns: string[] } | null;
}

export interface IndexShape {
  name: string;
  table: string;
  /** Column names in index order, with ` DESC` (and non-default NULLS …) appended. */
  columns: string[];
  unique: boolean;
  method: string;
  /** WHERE clause of a partial index. */
  predicate: string | null;
}

export interface ForeignKeyShape {
  name: string;
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: ReferentialAction;
  onUpdate: ReferentialAction;
}

export type ReferentialAction = "CASCADE" | "RESTRICT" | "NO ACTION" | "SET NULL" | "SET DEFAULT";

export interface DatabaseShape {
  tables: Map<string, TableShape>;
  /** Enum name → labels in declaration order. */
  enums: Map<string, string[]>;
  /** Index name → index (primary-key indexes excluded: see TableShape.primaryKey). */
  indexes: Map<string, IndexShape>;
  /** `table.constraint_name` → foreign key. */
  foreignKeys: Map<string, ForeignKeyShape>;
}

// ───────────────────────────── Prisma schema parser ─────────────────────────────

export type Value =
  | { kind: "string"; value: string }
  | { kind: "number"; value: string }
  | { kind: "ident"; name: string }
  | { kind: "call"; name: string; args: Arg[] }
  | { kind: "array"; items: Value[] };

export interface Arg {
  /** Undefined for a positional argument. */
  name?: string;
  value: Value;
}

export interface Attribute {
  /** `id`, `unique`, `default`, `map`, `relation`, `db.Uuid`, … (without the `@`). */
  name: string;
  args: Arg[];
  line: number;
}

export interface PrismaField {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  attributes: Attribute[];
  line: number;
}

export interface PrismaModel {
  name: string;
  fields: PrismaField[];
  /** `@@…` attributes. */
  attributes: Attribute[];
}

export interface PrismaEnum {
  name: string;
  values: { name: string; attributes: Attribute[] }[];
  attributes: Attribute[];
}

export interface PrismaSchema {
  models: PrismaModel[];
  enums: PrismaEnum[];
}

interface Token {
  kind: "ident" | "string" | "number" | "punct" | "newline" | "eof";
  value: string;
  line: number;
}

const PUNCTUATION = ["@@", "@", "(", ")", "[", "]", "{", "}", ",", ":", "?", ".", "="];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\n") {
      tokens.push({ kind: "newline", value: "\n", line });
      line++;
      i++;
    } else if (ch === " " || ch === "\t" || ch === "\r") {
      i++;
    } else if (text.startsWith("//", i)) {
      while (i < text.length && text[i] !== "\n") i++; // comments, doc comments included
    } else if (ch === '"') {
      let value = "";
      i++;
      while (text[i] !== '"') {
        if (i >= text.length || text[i] === "\n") throw new Error(`schema.prisma:${line}: unterminated string`);
        if (text[i] === "\\") {
          const escaped = text[i + 1];
          value += escaped === "n" ? "\n" : escaped === "t" ? "\t" : escaped;
          i += 2;
        } else {
          value += text[i];
          i++;
        }
      }
      i++;
      tokens.push({ kind: "string", value, line });
    } else if (/[-0-9]/.test(ch)) {
      const match = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i));
      if (!match) throw new Error(`schema.prisma:${line}: unexpected "${ch}"`);
      tokens.push({ kind: "number", value: match[0], line });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      tokens.push({ kind: "ident", value: match[0], line });
      i += match[0].length;
    } else {
      const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
      if (!punct) throw new Error(`schema.prisma:${line}: unexpected "${ch}"`);
      tokens.push({ kind: "punct", value: punct, line });
      i += punct.length;
    }
  }
  tokens.push({ kind: "eof", value: "", line });
  return tokens;
}

class Cursor {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }
  next(): Token {
    const token = this.peek();
    this.pos++;
    return token;
  }
  is(kind: Token["kind"], value?: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === kind && (value === undefined || token.value === value);
  }
  expect(kind: Token["kind"], value?: string): Token {
    const token = this.next();
    if (token.kind !== kind || (value !== undefined && token.value !== value)) {
      throw new Error(`schema.prisma:${token.line}: expected ${value ?? kind}, found "${token.value || token.kind}"`);
    }
    return token;
  }
  skipNewlines(): void {
    while (this.is("newline")) this.next();
  }
}

export function parsePrismaSchema(text: string): PrismaSchema {
  const cursor = new Cursor(tokenize(text));
  const schema: PrismaSchema = { models: [], enums: [] };
  for (;;) {
    cursor.skipNewlines();
    if (cursor.is("eof")) return schema;
    const keyword = cursor.expect("ident");
    const name = cursor.expect("ident").value;
    cursor.expect("punct", "{");
    switch (keyword.value) {
      case "generator":
      case "datasource":
        while (!cursor.is("punct", "}")) {
          if (cursor.is("eof")) throw new Error(`schema.prisma: unterminated ${keyword.value} ${name}`);
          cursor.next();
        }
        cursor.next();
        break;
      case "model":
        schema.models.push(parseModel(cursor, name));
        break;
      case "enum":
        schema.enums.push(parseEnum(cursor, name));
        break;
      default:
        throw new Error(`schema.prisma:${keyword.line}: "${keyword.value}" blocks are not supported by tests/support/schema-model.ts`);
    }
  }
}

function parseModel(cursor: Cursor, name: string): PrismaModel {
  const model: PrismaModel = { name, fields: [], attributes: [] };
  for (;;) {
    cursor.skipNewlines();
    if (cursor.is("punct", "}")) {
      cursor.next();
      return model;
    }
    if (cursor.is("punct", "@@")) {
      cursor.next();
      model.attributes.push(parseAttribute(cursor));
      endOfStatement(cursor);
      continue;
    }
    const fieldName = cursor.expect("ident");
    const type = cursor.expect("ident").value;
    if (cursor.is("punct", "(")) {
      throw new Error(`schema.prisma:${fieldName.line}: ${name}.${fieldName.value}: type ${type}(…) is not supported by tests/support/schema-model.ts`);
    }
    const field: PrismaField = { name: fieldName.value, type, optional: false, list: false, attributes: [], line: fieldName.line };
    if (cursor.is("punct", "?")) {
      cursor.next();
      field.optional = true;
    } else if (cursor.is("punct", "[")) {
      cursor.next();
      cursor.expect("punct", "]");
      field.list = true;
    }
    while (cursor.is("punct", "@")) {
      cursor.next();
      field.attributes.push(parseAttribute(cursor));
    }
    endOfStatement(cursor);
    model.fields.push(field);
  }
}

function parseEnum(cursor: Cursor, name: string): PrismaEnum {
  const result: PrismaEnum = { name, values: [], attributes: [] };
  for (;;) {
    cursor.skipNewlines();
    if (cursor.is("punct", "}")) {
      cursor.next();
      return result;
    }
    if (cursor.is("punct", "@@")) {
      cursor.next();
      result.attributes.push(parseAttribute(cursor));
    } else {
      const value = { name: cursor.expect("ident").value, attributes: [] as Attribute[] };
      while (cursor.is("punct", "@")) {
        cursor.next();
        value.attributes.push(parseAttribute(cursor));
      }
      result.values.push(value);
    }
    endOfStatement(cursor);
  }
}

function endOfStatement(cursor: Cursor): void {
  if (cursor.is("punct", "}")) return;
  const token = cursor.next();
  if (token.kind !== "newline") throw new Error(`schema.prisma:${token.line}: unexpected "${token.value}"`);
}

/** After `@` or `@@`: `name`, `db.Name`, optionally followed by `(args)`. */
function parseAttribute(cursor: Cursor): Attribute {
  const first = cursor.expect("ident");
  let name = first.value;
  if (cursor.is("punct", ".")) {
    cursor.next();
    name += "." + cursor.expect("ident").value;
  }
  const args = cursor.is("punct", "(") ? parseArgs(cursor) : [];
  return { name, args, line: first.line };
}

function parseArgs(cursor: Cursor): Arg[] {
  cursor.expect("punct", "(");
  const args: Arg[] = [];
  for (;;) {
    cursor.skipNewlines();
    if (cursor.is("punct", ")")) break;
    if (cursor.is("ident") && cursor.is("punct", ":", 1)) {
      const name = cursor.next().value;
      cursor.next();
      cursor.skipNewlines();
      args.push({ name, value: parseValue(cursor) });
    } else {
      args.push({ value: parseValue(cursor) });
    }
    cursor.skipNewlines();
    if (!cursor.is("punct", ",")) break;
    cursor.next();
  }
  cursor.skipNewlines();
  cursor.expect("punct", ")");
  return args;
}

function parseValue(cursor: Cursor): Value {
  const token = cursor.next();
  if (token.kind === "string") return { kind: "string", value: token.value };
  if (token.kind === "number") return { kind: "number", value: token.value };
  if (token.kind === "ident") {
    return cursor.is("punct", "(") ? { kind: "call", name: token.value, args: parseArgs(cursor) } : { kind: "ident", name: token.value };
  }
  if (token.kind === "punct" && token.value === "[") {
    const items: Value[] = [];
    for (;;) {
      cursor.skipNewlines();
      if (cursor.is("punct", "]")) break;
      items.push(parseValue(cursor));
      cursor.skipNewlines();
      if (!cursor.is("punct", ",")) break;
      cursor.next();
    }
    cursor.skipNewlines();
    cursor.expect("punct", "]");
    return { kind: "array", items };
  }
  throw new Error(`schema.prisma:${token.line}: unexpected "${token.value || token.kind}"`);
}

// ───────────────────────────── schema.prisma → expected shape ─────────────────────────────

/** PostgreSQL's identifier limit, which Prisma's default constraint names respect. */
const MAX_IDENTIFIER_LENGTH = 63;

/** Prisma's default constraint name: `{table}_{columns}_{suffix}`, truncated as Prisma does. */
export function prismaConstraintName(table: string, columns: string[], suffix: "pkey" | "key" | "idx" | "fkey"): string {
  const base = suffix === "pkey" ? table : `${table}_${columns.join("_")}`;
  const room = MAX_IDENTIFIER_LENGTH - suffix.length - 1;
  return `${base.length >= room ? base.slice(0, room) : base}_${suffix}`;
}

const SCALAR_TYPES: Record<string, string> = {
  String: "TEXT",
  Int: "INTEGER",
  BigInt: "BIGINT",
  Boolean: "BOOLEAN",
  DateTime: "TIMESTAMP(3)",
  Float: "DOUBLE PRECISION",
  Decimal: "DECIMAL(65,30)",
  Json: "JSONB",
  Bytes: "BYTEA",
};

/** `@db.X(args)` → SQL type; the function receives the numeric arguments. */
const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Uuid: () => "UUID",
  Text: () => "TEXT",
  VarChar: (a) => (a.length ? `VARCHAR(${a[0]})` : "VARCHAR"),
  Char: (a) => `CHAR(${a[0] ?? 1})`,
  SmallInt: () => "SMALLINT",
  Integer: () => "INTEGER",
  BigInt: () => "BIGINT",
  Real: () => "REAL",
  DoublePrecision: () => "DOUBLE PRECISION",
  Decimal: (a) => (a.length ? `DECIMAL(${a.join(",")})` : "DECIMAL"),
  Boolean: () => "BOOLEAN",
  Date: () => "DATE",
  Timestamp: (a) => (a.length ? `TIMESTAMP(${a[0]})` : "TIMESTAMP"),
  Timestamptz: (a) => (a.length ? `TIMESTAMPTZ(${a[0]})` : "TIMESTAMPTZ"),
  Time: (a) => (a.length ? `TIME(${a[0]})` : "TIME"),
  Timetz: (a) => (a.length ? `TIMETZ(${a[0]})` : "TIMETZ"),
  Json: () => "JSON",
  JsonB: () => "JSONB",
  ByteA: () => "BYTEA",
  Inet: () => "INET",
  Citext: () => "CITEXT",
};

const PRISMA_ACTIONS: Record<string, ReferentialAction> = {
  Cascade: "CASCADE",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetNull: "SET NULL",
  SetDefault: "SET DEFAULT",
};

const FIELD_ATTRIBUTES = new Set(["id", "unique", "default", "map", "relation", "updatedAt"]);
const MODEL_ATTRIBUTES = new Set(["id", "unique", "index", "map"]);

/**
 * The argument called `name`, or else (when the parameter may be passed
 * positionally) the positional argument at `position`.
 */
function argument(attribute: Attribute | undefined, name: string, position?: number): Value | undefined {
  if (!attribute) return undefined;
  const named = attribute.args.find((a) => a.name === name);
  if (named) return named.value;
  if (position === undefined) return undefined;
  return attribute.args.filter((a) => a.name === undefined)[position]?.value;
}

function stringArgument(attribute: Attribute | undefined, name: string, position?: number): string | undefined {
  const value = argument(attribute, name, position);
  if (value === undefined) return undefined;
  if (value.kind !== "string") throw new Error(`schema.prisma:${attribute!.line}: @${attribute!.name}: ${name} must be a string`);
  return value.value;
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function expectedShape(schema: PrismaSchema): DatabaseShape {
  const shape: DatabaseShape = { tables: new Map(), enums: new Map(), indexes: new Map(), foreignKeys: new Map() };
  const models = new Map(schema.models.map((m) => [m.name, m]));
  const enums = new Map(schema.enums.map((e) => [e.name, e]));

  const enumDbName = (e: PrismaEnum) => stringArgument(e.attributes.find((a) => a.name === "map"), "name", 0) ?? e.name;
  const enumValueDbName = (v: PrismaEnum["values"][number]) =>
    stringArgument(v.attributes.find((a) => a.name === "map"), "name", 0) ?? v.name;
  for (const e of schema.enums) {
    for (const attribute of [...e.attributes, ...e.values.flatMap((v) => v.attributes)]) {
      if (attribute.name !== "map") throw new Error(`schema.prisma:${attribute.line}: enum ${e.name}: @${attribute.name} is not supported`);
    }
    shape.enums.set(enumDbName(e), e.values.map(enumValueDbName));
  }

  const tableName = (m: PrismaModel) => stringArgument(m.attributes.find((a) => a.name === "map"), "name", 0) ?? m.name;
  const columnName = (f: PrismaField) => stringArgument(f.attributes.find((a) => a.name === "map"), "name", 0) ?? f.name;
  const fieldOf = (m: PrismaModel, name: string, line: number) => {
    const field = m.fields.find((f) => f.name === name);
    if (!field) throw new Error(`schema.prisma:${line}: model ${m.name} has no field ${name}`);
    return field;
  };
  /** `[a, b(sort: Desc)]` → column names (with ` DESC` where asked). */
  const indexColumns = (m: PrismaModel, attribute: Attribute): string[] => {
    const list = argument(attribute, "fields", 0);
    if (!list || list.kind !== "array") throw new Error(`schema.prisma:${attribute.line}: @@${attribute.name} needs a field list`);
    return list.items.map((item) => {
      if (item.kind === "ident") return columnName(fieldOf(m, item.name, attribute.line));
      if (item.kind === "call") {
        for (const a of item.args) {
          if (a.name !== "sort") throw new Error(`schema.prisma:${attribute.line}: @@${attribute.name}: ${a.name ?? "positional"} argument not supported`);
        }
        const sort = item.args.find((a) => a.name === "sort")?.value;
        const desc = sort?.kind === "ident" && sort.name === "Desc";
        return columnName(fieldOf(m, item.name, attribute.line)) + (desc ? " DESC" : "");
      }
      throw new Error(`schema.prisma:${attribute.line}: @@${attribute.name}: unexpected item in the field list`);
    });
  };
  const checkOnlyArgs = (attribute: Attribute, allowed: string[]) => {
    for (const a of attribute.args) {
      if (a.name !== undefined && !allowed.includes(a.name)) {
        throw new Error(`schema.prisma:${attribute.line}: @${attribute.name}(${a.name}: …) is not supported by tests/support/schema-model.ts`);
      }
    }
  };

  for (const model of schema.models) {
    const table: TableShape = { name: tableName(model), columns: new Map(), primaryKey: null };
    if (shape.tables.has(table.name)) throw new Error(`schema.prisma: two models map to table ${table.name}`);
    shape.tables.set(table.name, table);
    const addIndex = (columns: string[], unique: boolean, map: string | undefined) => {
      const bare = columns.map((c) => c.replace(/ DESC$/, ""));
      const name = map ?? prismaConstraintName(table.name, bare, unique ? "key" : "idx");
      shape.indexes.set(name, { name, table: table.name, columns, unique, method: "btree", predicate: null });
    };

    for (const field of model.fields) {
      for (const attribute of field.attributes) {
        if (!FIELD_ATTRIBUTES.has(attribute.name) && !attribute.name.startsWith("db.")) {
          throw new Error(`schema.prisma:${attribute.line}: ${model.name}.${field.name}: @${attribute.name} is not supported by tests/support/schema-model.ts`);
        }
      }
      const find = (name: string) => field.attributes.find((a) => a.name === name);
      const target = models.get(field.type);

      if (target) {
        // A relation field: no column of its own; the side with `fields` owns a foreign key.
        const relation = find("relation");
        const fields = argument(relation, "fields");
        if (!fields) {
          if (field.list && !target.fields.some((f) => f.type === model.name && !f.list)) {
            throw new Error(`schema.prisma:${field.line}: implicit many-to-many relations are not supported by tests/support/schema-model.ts`);
          }
          continue;
        }
        const references = argument(relation, "references");
        if (fields.kind !== "array" || references?.kind !== "array") {
          throw new Error(`schema.prisma:${field.line}: @relation needs fields: [...] and references: [...]`);
        }
        checkOnlyArgs(relation!, ["name", "fields", "references", "onDelete", "onUpdate", "map"]);
        const names = (v: Value) => (v.kind === "ident" ? v.name : "?");
        const columns = fields.items.map((v) => columnName(fieldOf(model, names(v), field.line)));
        const action = (name: "onDelete" | "onUpdate", fallback: ReferentialAction) => {
          const value = argument(relation, name);
          if (!value) return fallback;
          const mapped = value.kind === "ident" ? PRISMA_ACTIONS[value.name] : undefined;
          if (!mapped) throw new Error(`schema.prisma:${field.line}: unknown ${name} action`);
          return mapped;
        };
        const name = stringArgument(relation, "map") ?? prismaConstraintName(table.name, columns, "fkey");
        shape.foreignKeys.set(`${table.name}.${name}`, {
          name,
          table: table.name,
          columns,
          referencedTable: tableName(target),
          referencedColumns: references.items.map((v) => columnName(fieldOf(target, names(v), field.line))),
          // Prisma's defaults: optional relations SET NULL on delete, required ones RESTRICT; updates CASCADE.
          onDelete: action("onDelete", field.optional ? "SET NULL" : "RESTRICT"),
          onUpdate: action("onUpdate", "CASCADE"),
        });
        continue;
      }

      const prismaEnum = enums.get(field.type);
      const column = columnName(field);
      table.columns.set(column, {
        type: columnType(field, prismaEnum ? enumDbName(prismaEnum) : undefined) + (field.list ? "[]" : ""),
        // Prisma Migrate creates scalar lists without NOT NULL.
        nullable: field.optional || field.list,
        default: expectedDefault(field, prismaEnum, enumValueDbName),
      });

      const id = find("id");
      if (id) {
        checkOnlyArgs(id, ["map"]);
        table.primaryKey = { name: stringArgument(id, "map") ?? prismaConstraintName(table.name, [], "pkey"), columns: [column] };
      }
      const unique = find("unique");
      if (unique) {
        checkOnlyArgs(unique, ["map", "sort"]);
        const sort = argument(unique, "sort");
        addIndex([column + (sort?.kind === "ident" && sort.name === "Desc" ? " DESC" : "")], true, stringArgument(unique, "map"));
      }
    }

    for (const attribute of model.attributes) {
      if (!MODEL_ATTRIBUTES.has(attribute.name)) {
        throw new Error(`schema.prisma:${attribute.line}: ${model.name}: @@${attribute.name} is not supported by tests/support/schema-model.ts`);
      }
      if (attribute.name === "id") {
        checkOnlyArgs(attribute, ["fields", "name", "map"]);
        table.primaryKey = {
          name: stringArgument(attribute, "map") ?? prismaConstraintName(table.name, [], "pkey"),
          columns: indexColumns(model, attribute),
        };
      } else if (attribute.name === "unique" || attribute.name === "index") {
        checkOnlyArgs(attribute, ["fields", "name", "map"]);
        addIndex(indexColumns(model, attribute), attribute.name === "unique", stringArgument(attribute, "map"));
      }
    }
  }
  return shape;
}

function columnType(field: PrismaField, enumName: string | undefined): string {
  const native = field.attributes.find((a) => a.name.startsWith("db."));
  if (native) {
    const make = NATIVE_TYPES[native.name.slice(3)];
    if (!make) throw new Error(`schema.prisma:${native.line}: @${native.name} is not supported by tests/support/schema-model.ts`);
    return make(native.args.map((a) => (a.value.kind === "number" ? a.value.value : "?")));
  }
  if (enumName) return `"${enumName}"`;
  const type = SCALAR_TYPES[field.type];
  if (!type) throw new Error(`schema.prisma:${field.line}: ${field.name}: type ${field.type} is not supported by tests/support/schema-model.ts`);
  return type;
}

/** The database default `@default(…)` asks for, in the canonical form of normalizeSqlExpression. */
function expectedDefault(
  field: PrismaField,
  prismaEnum: PrismaEnum | undefined,
  enumValueDbName: (v: PrismaEnum["values"][number]) => string,
): string | null {
  const attribute = field.attributes.find((a) => a.name === "default");
  if (!attribute) return null;
  const value = argument(attribute, "value", 0);
  const where = `schema.prisma:${attribute.line}: ${field.name}: @default`;
  if (!value) throw new Error(`${where} needs a value`);

  const literal = (v: Value): string => {
    if (prismaEnum) {
      const enumValue = v.kind === "ident" ? prismaEnum.values.find((e) => e.name === v.name) : undefined;
      if (!enumValue) throw new Error(`${where}: not a value of enum ${prismaEnum.name}`);
      return sqlString(enumValueDbName(enumValue));
    }
    if (v.kind === "string" && ["String", "Json"].includes(field.type)) return sqlString(v.value);
    if (v.kind === "number" && ["Int", "BigInt", "Float", "Decimal"].includes(field.type)) return normalizeSqlExpression(v.value);
    if (v.kind === "ident" && field.type === "Boolean" && (v.name === "true" || v.name === "false")) return v.name;
    throw new Error(`${where}: this kind of default is not supported by tests/support/schema-model.ts`);
  };

  if (value.kind === "call") {
    switch (value.name) {
      case "autoincrement":
        return "autoincrement()";
      case "now":
        return "CURRENT_TIMESTAMP";
      case "dbgenerated": {
        const expression = argument({ ...attribute, args: value.args }, "expression", 0);
        if (expression?.kind !== "string") throw new Error(`${where}: dbgenerated() needs the SQL expression`);
        return normalizeSqlExpression(expression.value);
      }
      case "uuid":
      case "cuid":
      case "nanoid":
      case "ulid":
        return null; // generated by Prisma Client, not by the database
      default:
        throw new Error(`${where}: ${value.name}() is not supported by tests/support/schema-model.ts`);
    }
  }
  if (field.list) {
    if (value.kind !== "array") throw new Error(`${where}: a list needs a list default`);
    return `ARRAY[${value.items.map(literal).join(", ")}]`;
  }
  return literal(value);
}

// ───────────────────────────── SQL expressions ─────────────────────────────

/** Splits SQL text into quoted literals / identifiers and the code between them. */
function splitQuoted(sql: string): { text: string; quoted: boolean }[] {
  const parts: { text: string; quoted: boolean }[] = [];
  let i = 0;
  let code = "";
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      if (code) parts.push({ text: code, quoted: false });
      code = "";
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) break;
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) j += 2; // doubled quote inside the literal
          else break;
        } else j++;
      }
      parts.push({ text: sql.slice(i, j + 1), quoted: true });
      i = j + 1;
    } else {
      code += ch;
      i++;
    }
  }
  if (code) parts.push({ text: code, quoted: false });
  return parts;
}

const CAST =
  /::\s*(?:"[^"]*"|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)(?:\s+(?:varying|precision))?(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?(?:\s+with(?:out)?\s+time\s+zone)?(?:\s*\[\])*/gi;

/**
 * A canonical form of a default expression, so that the same default reads the
 * same whether it comes from schema.prisma or from pg_get_expr: type casts
 * dropped, whitespace collapsed, quoted numbers unquoted, `now()` written
 * `CURRENT_TIMESTAMP`, redundant outer parentheses removed.
 */
export function normalizeSqlExpression(sql: string): string {
  // Casts follow a literal or an expression (`'usd'::text`, `ARRAY[]::text[]`), so
  // rejoin the pieces and strip `::type` wherever it starts outside quotes.
  const parts = splitQuoted(sql.trim());
  let out = "";
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    if (part.quoted) {
      // A quoted identifier right after `::` is a cast to that type: drop it.
      if (part.text.startsWith('"') && /::\s*$/.test(out)) {
        out = out.replace(/::\s*$/, "");
        const after = parts[k + 1];
        if (after && !after.quoted) after.text = after.text.replace(/^(?:\s*\[\])*/, "");
        continue;
      }
      out += part.text;
    } else {
      out += part.text.replace(CAST, "").replace(/\s+/g, " ");
    }
  }
  out = out.trim();
  while (out.startsWith("(") && out.endsWith(")") && wrapsWhole(out)) out = out.slice(1, -1).trim();
  const quotedNumber = /^'(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)'$/.exec(out);
  if (quotedNumber) out = quotedNumber[1]!;
  if (/^(now\(\)|current_timestamp)$/i.test(out)) out = "CURRENT_TIMESTAMP";
  return out;
}

/** Whether the opening parenthesis at 0 closes at the very end. */
function wrapsWhole(text: string): boolean {
  let depth = 0;
  let seen = 0;
  for (const part of splitQuoted(text)) {
    if (part.quoted) {
      seen += part.text.length;
      continue;
    }
    for (const ch of part.text) {
      seen++;
      if (ch === "(") depth++;
      if (ch === ")") depth--;
      if (depth === 0) return seen === text.length;
    }
  }
  return false;
}

// ───────────────────────────── introspection ─────────────────────────────

const PG_ACTIONS: Record<string, ReferentialAction> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

/** Tables Prisma Migrate owns itself; not part of any model. */
const INTERNAL_TABLES = new Set(["_prisma_migrations"]);

/** Canonical spelling of a type as format_type() prints it. */
export function canonicalType(formatted: string): string {
  const t = formatted.trim().toLowerCase();
  let m: RegExpExecArray | null;
  if ((m = /^timestamp(?:\((\d+)\))? with(out)? time zone$/.exec(t))) return `TIMESTAMP${m[2] ? "" : "TZ"}${m[1] ? `(${m[1]})` : ""}`;
  if ((m = /^time(?:\((\d+)\))? with(out)? time zone$/.exec(t))) return `TIME${m[2] ? "" : "TZ"}${m[1] ? `(${m[1]})` : ""}`;
  if ((m = /^character varying(?:\((\d+)\))?$/.exec(t))) return m[1] ? `VARCHAR(${m[1]})` : "VARCHAR";
  if ((m = /^character(?:\((\d+)\))?$/.exec(t))) return `CHAR(${m[1] ?? 1})`;
  if ((m = /^numeric(?:\((\d+),(\d+)\))?$/.exec(t))) return m[1] ? `DECIMAL(${m[1]},${m[2]})` : "DECIMAL";
  return t.toUpperCase();
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  not_null: boolean;
  default_expr: string | null;
  identity: string;
  generated: string;
  is_array: boolean;
  type_kind: string;
  type_name: string;
  type_formatted: string;
}

interface IndexRow {
  index_name: string;
  table_name: string;
  is_unique: boolean;
  is_primary: boolean;
  method: string;
  predicate: string | null;
  columns: string[];
  options: number[];
}

interface ConstraintRow {
  constraint_name: string;
  constraint_type: string;
  table_name: string;
  columns: string[];
  referenced_table: string | null;
  referenced_columns: string[] | null;
  on_delete: string;
  on_update: string;
}

/** Reads tables, columns, keys, indexes, foreign keys and enums of one schema. */
export async function introspect(driver: SqlDriver, schemaName = "public"): Promise<DatabaseShape> {
  const shape: DatabaseShape = { tables: new Map(), enums: new Map(), indexes: new Map(), foreignKeys: new Map() };

  const enumRows = await driver.query<{ name: string; labels: string[] }>(
    `SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t
       JOIN pg_namespace n ON n.oid = t.typnamespace
       JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE n.nspname = $1
      GROUP BY t.typname`,
    [schemaName],
  );
  for (const row of enumRows) shape.enums.set(row.name, row.labels);

  const tableRows = await driver.query<{ table_name: string }>(
    `SELECT c.relname::text AS table_name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schemaName],
  );
  for (const row of tableRows) {
    if (INTERNAL_TABLES.has(row.table_name)) continue;
    shape.tables.set(row.table_name, { name: row.table_name, columns: new Map(), primaryKey: null });
  }

  const columnRows = await driver.query<ColumnRow>(
    `SELECT c.relname::text AS table_name,
            a.attname::text AS column_name,
            a.attnotnull AS not_null,
            pg_get_expr(d.adbin, d.adrelid) AS default_expr,
            a.attidentity::text AS identity,
            a.attgenerated::text AS generated,
            t.typcategory = 'A' AS is_array,
            et.typtype::text AS type_kind,
            et.typname::text AS type_name,
            format_type(et.oid, a.atttypmod) AS type_formatted
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type t ON t.oid = a.atttypid
       JOIN pg_type et ON et.oid = CASE WHEN t.typcategory = 'A' THEN t.typelem ELSE t.oid END
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
    [schemaName],
  );
  for (const row of columnRows) {
    const table = shape.tables.get(row.table_name);
    if (!table) continue;
    const base = row.type_kind === "e" ? `"${row.type_name}"` : canonicalType(row.type_formatted);
    table.columns.set(row.column_name, {
      type: base + (row.is_array ? "[]" : ""),
      nullable: !row.not_null,
      default: actualDefault(row),
    });
  }

  const indexRows = await driver.query<IndexRow>(
    `SELECT ic.relname::text AS index_name,
            tc.relname::text AS table_name,
            ix.indisunique AS is_unique,
            ix.indisprimary AS is_primary,
            am.amname::text AS method,
            pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
            ARRAY(SELECT pg_get_indexdef(ix.indexrelid, k, true) FROM generate_series(1, ix.indnkeyatts) AS k ORDER BY k) AS columns,
            ARRAY(SELECT ix.indoption[k - 1]::int FROM generate_series(1, ix.indnkeyatts) AS k ORDER BY k) AS options
       FROM pg_index ix
       JOIN pg_class ic ON ic.oid = ix.indexrelid
       JOIN pg_class tc ON tc.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = tc.relnamespace
       JOIN pg_am am ON am.oid = ic.relam
      WHERE n.nspname = $1`,
    [schemaName],
  );
  for (const row of indexRows) {
    if (row.is_primary || !shape.tables.has(row.table_name)) continue;
    shape.indexes.set(row.index_name, {
      name: row.index_name,
      table: row.table_name,
      columns: row.columns.map((column, k) => unquoteIdentifier(column) + sortSuffix(row.options[k] ?? 0)),
      unique: row.is_unique,
      method: row.method,
      predicate: row.predicate,
    });
  }

  const constraintRows = await driver.query<ConstraintRow>(
    `SELECT con.conname::text AS constraint_name,
            con.contype::text AS constraint_type,
            tc.relname::text AS table_name,
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(num, pos)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.pos) AS columns,
            rc.relname::text AS referenced_table,
            ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(num, pos)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.pos) AS referenced_columns,
            con.confdeltype::text AS on_delete,
            con.confupdtype::text AS on_update
       FROM pg_constraint con
       JOIN pg_class tc ON tc.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = tc.relnamespace
       LEFT JOIN pg_class rc ON rc.oid = con.confrelid
      WHERE n.nspname = $1 AND con.contype IN ('p', 'f')`,
    [schemaName],
  );
  for (const row of constraintRows) {
    const table = shape.tables.get(row.table_name);
    if (!table) continue;
    if (row.constraint_type === "p") {
      table.primaryKey = { name: row.constraint_name, columns: row.columns };
    } else {
      shape.foreignKeys.set(`${row.table_name}.${row.constraint_name}`, {
        name: row.constraint_name,
        table: row.table_name,
        columns: row.columns,
        referencedTable: row.referenced_table ?? "?",
        referencedColumns: row.referenced_columns ?? [],
        onDelete: PG_ACTIONS[row.on_delete] ?? "NO ACTION",
        onUpdate: PG_ACTIONS[row.on_update] ?? "NO ACTION",
      });
    }
  }
  return shape;
}

function actualDefault(row: ColumnRow): string | null {
  if (row.identity === "a") return "GENERATED ALWAYS AS IDENTITY";
  if (row.identity === "d") return "GENERATED BY DEFAULT AS IDENTITY";
  if (row.default_expr === null) return null;
  if (row.generated === "s") return `GENERATED ALWAYS AS (${row.default_expr}) STORED`;
  const expression = normalizeSqlExpression(row.default_expr);
  // SERIAL / BIGSERIAL: Prisma's autoincrement() uses the sequence PostgreSQL names {table}_{column}_seq.
  const sequence = /^nextval\('"?([^'"]+)"?'\)$/.exec(expression)?.[1];
  if (sequence && sequence === `${row.table_name}_${row.column_name}_seq`) return "autoincrement()";
  return expression;
}

function unquoteIdentifier(identifier: string): string {
  return /^"(.*)"$/.test(identifier) ? identifier.slice(1, -1).replace(/""/g, '"') : identifier;
}

/** pg_index.indoption bits: 1 = DESC, 2 = NULLS FIRST. Only non-defaults are spelled out. */
function sortSuffix(option: number): string {
  const desc = (option & 1) === 1;
  const nullsFirst = (option & 2) === 2;
  if (desc) return nullsFirst ? " DESC" : " DESC NULLS LAST";
  return nullsFirst ? " NULLS FIRST" : "";
}

// ───────────────────────────── comparison ─────────────────────────────

export function describeColumn(c: ColumnShape): string {
  return `${c.type} ${c.nullable ? "NULL" : "NOT NULL"}${c.default === null ? "" : ` DEFAULT ${c.default}`}`;
}

export function describeIndex(i: IndexShape): string {
  const method = i.method === "btree" ? "" : ` USING ${i.method}`;
  const where = i.predicate ? ` WHERE ${i.predicate}` : "";
  return `${i.unique ? "UNIQUE " : ""}ON ${i.table}${method} (${i.columns.join(", ")})${where}`;
}

export function describeForeignKey(f: ForeignKeyShape): string {
  return `(${f.columns.join(", ")}) REFERENCES ${f.referencedTable}(${f.referencedColumns.join(", ")}) ON DELETE ${f.onDelete} ON UPDATE ${f.onUpdate}`;
}

function describeKey(key: TableShape["primaryKey"]): string {
  return key ? `${key.name} (${key.columns.join(", ")})` : "none";
}

function sortedKeys(...maps: Map<string, unknown>[]): string[] {
  return [...new Set(maps.flatMap((m) => [...m.keys()]))].sort();
}

/**
 * Every difference between what schema.prisma expects and what the migrations
 * built, one line each, in a stable order. Empty when they agree.
 */
export function diffShapes(expected: DatabaseShape, actual: DatabaseShape): string[] {
  const out: string[] = [];

  for (const name of sortedKeys(expected.enums, actual.enums)) {
    const want = expected.enums.get(name);
    const got = actual.enums.get(name);
    const list = (values: string[]) => `(${values.join(", ")})`;
    if (!got) out.push(`enum ${name}: missing from the migrations (schema says ${list(want!)})`);
    else if (!want) out.push(`enum ${name}: in the migrations ${list(got)}, not in schema.prisma`);
    else if (list(want) !== list(got)) out.push(`enum ${name}: schema says ${list(want)}, migrations give ${list(got)}`);
  }

  const missingTables = new Set<string>();
  for (const name of sortedKeys(expected.tables, actual.tables)) {
    const want = expected.tables.get(name);
    const got = actual.tables.get(name);
    if (!got || !want) {
      missingTables.add(name);
      out.push(got ? `table ${name}: in the migrations, not in schema.prisma` : `table ${name}: missing from the migrations`);
      continue;
    }
    for (const column of sortedKeys(want.columns, got.columns)) {
      const w = want.columns.get(column);
      const g = got.columns.get(column);
      const label = `${name}.${column}`;
      if (!g) out.push(`${label}: missing from the migrations (schema says ${describeColumn(w!)})`);
      else if (!w) out.push(`${label}: in the migrations (${describeColumn(g)}), not in schema.prisma`);
      else if (describeColumn(w) !== describeColumn(g)) out.push(`${label}: schema says ${describeColumn(w)}, migrations give ${describeColumn(g)}`);
    }
    if (describeKey(want.primaryKey) !== describeKey(got.primaryKey)) {
      out.push(`${name} primary key: schema says ${describeKey(want.primaryKey)}, migrations give ${describeKey(got.primaryKey)}`);
    }
  }

  for (const name of sortedKeys(expected.indexes, actual.indexes)) {
    const want = expected.indexes.get(name);
    const got = actual.indexes.get(name);
    if (missingTables.has((want ?? got)!.table)) continue;
    if (!got) out.push(`index ${name}: missing from the migrations (schema says ${describeIndex(want!)})`);
    else if (!want) out.push(`index ${name}: in the migrations (${describeIndex(got)}), not in schema.prisma`);
    else if (describeIndex(want) !== describeIndex(got)) out.push(`index ${name}: schema says ${describeIndex(want)}, migrations give ${describeIndex(got)}`);
  }

  for (const key of sortedKeys(expected.foreignKeys, actual.foreignKeys)) {
    const want = expected.foreignKeys.get(key);
    const got = actual.foreignKeys.get(key);
    if (missingTables.has((want ?? got)!.table)) continue;
    if (!got) out.push(`foreign key ${key}: missing from the migrations (schema says ${describeForeignKey(want!)})`);
    else if (!want) out.push(`foreign key ${key}: in the migrations (${describeForeignKey(got)}), not in schema.prisma`);
    else if (describeForeignKey(want) !== describeForeignKey(got)) {
      out.push(`foreign key ${key}: schema says ${describeForeignKey(want)}, migrations give ${describeForeignKey(got)}`);
    }
  }
  return out;
}
