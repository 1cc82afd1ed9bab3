import FTSearchFormats
extension FieldMapping {
    /// `fields` after the fields of `stored` that they do not give: what an import that keeps
    /// stored fields (``ImportOptions/keepsStoredFields``) maps. Searchable fields, the id and
    /// the creation time are matched by their role, so `firstName` given replaces a stored
    /// `first_name`; extra fields by their name, as stored. The stored update time is left
    /// out: the write's own time replaces it.
    static func fields(_ fields: [JSONMember], completedFrom stored: Record) -> [JSONMember] {
        let kind = stored.kind
        var givenRoles = Set<Role>()
        var givenExtras = Set<String>()
        for field in fields {
            let role = role(ofField: field.key, in: kind)
            if role == .extra { givenExtras.insert(field.key) } else { givenRoles.insert(role) }
        }
        let kept = stored.documentMembers(idAsText: false).filter { member in
            switch role(ofField: member.key, in: kind) {
            case .updatedAt: false
            case .extra: !givenExtras.contains(member.key)
            case let role: !givenRoles.contains(role)
            }
        }
        return kept + fields
    }
}
