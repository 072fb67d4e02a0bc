/**
 * Operator look-ups of organizations: the newest organizations across tenants, and one by id or slug with its
 * owners. Organizations being deleted are shown too (with their status): an operator is asked about those.
 */
import { describeOrganization, listOrganizationsForOperator, type OrganizationListing, type OrganizationOverview } from '../../domain/organizations/admin';
import type { AdminCommand, AdminContext } from './command';
import { formatTable, iso, parseFlags, positiveInt, truncate, UsageError } from './options';

const MAX_LIST = 1000;

function listLines(organizations: OrganizationListing[], more: boolean): string[] {
  if (!organizations.length) return ['admin: no organizations'];
  const rows = organizations.map((o) => [o.id, o.slug, truncate(o.name, 40), o.plan, o.status, String(o.members), iso(o.createdAt)]);
  return [
    ...formatTable(['ID', 'SLUG', 'NAME', 'PLAN', 'STATUS', 'MEMBERS', 'CREATED'], rows),
    `admin: ${organizations.length} organization(s)${more ? ' (newest first; raise --limit for more)' : ''}`,
  ];
}

function overviewLines(o: OrganizationOverview): string[] {
  const fields: [string, string][] = [
    ['organization', o.id],
    ['name', o.name],
    ['slug', o.slug],
    ['plan', o.plan],
    ['status', o.deletionRequestedAt ? `${o.status} (deletion asked ${o.deletionRequestedAt})` : o.status],
    ['members', String(o.members)],
    ['owners', o.owners.join(', ') || '-'],
    ['invitations', `${o.pendingInvitations} pending`],
    ['created', o.createdAt],
    ['updated', o.updatedAt],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  return fields.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
}

async function listOrganizations(args: string[], ctx: AdminContext): Promise<number> {
  const flags = parseFlags(args, { limit: positiveInt(MAX_LIST) });
  const listed = await listOrganizationsForOperator(ctx.db, flags.limit ?? 50);
  ctx.emit(listed, (l) => listLines(l.data, l.more));
  return 0;
}

async function showOrganization(args: string[], ctx: AdminContext): Promise<number> {
  if (args.length !== 1) throw new UsageError('show takes exactly one organization id or slug');
  const organization = await describeOrganization(ctx.db, args[0]!);
  if (!organization) {
    ctx.err(`no organization with id or slug "${truncate(args[0]!, 64)}"`, 'NOT_FOUND');
    return 1;
  }
  ctx.emit(organization, overviewLines);
  return 0;
}

export const ORGANIZATION_COMMANDS: Record<string, AdminCommand> = {
  orgs: {
    usage: 'list [--limit N] | show <id|slug>',
    summary: 'organizations, newest first, with plan, status and member count (default limit 50), or one with its owners',
    minArgs: 1,
    maxArgs: 3,
    async run([action, ...rest], ctx) {
      if (action === 'list') return listOrganizations(rest, ctx);
      if (action === 'show') return showOrganization(rest, ctx);
      throw new UsageError(`unknown action "${action}" (list or show)`);
    },
  },
};
