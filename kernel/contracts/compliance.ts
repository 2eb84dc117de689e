// Contract for compliance modules (plugin kind "compliance"). Each module reports a status
// that the readiness report reduces over, and may mount its own routes under /api/v1/compliance/.
export interface ComplianceStatus {
  id: string;
  title: string;
  status: 'active' | 'available' | 'attention';
  detail: string;
  next_actions?: string[];
}

export interface ComplianceModule {
  id: string;
  title: string;
  status(): Promise<ComplianceStatus> | ComplianceStatus;
}
