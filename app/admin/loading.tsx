import { PageSkeleton } from "@/components/ui/page-skeleton";

/** While a console page loads (the layout has checked the administrator already). */
export default function AdminLoading() {
  return <PageSkeleton />;
}
