export { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/route";
