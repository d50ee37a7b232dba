import { PageSkeleton } from "@/components/ui/page-skeleton";

/** While a dashboard page loads. */
export default function DashboardLoading() {
  return <PageSkeleton />;
}
