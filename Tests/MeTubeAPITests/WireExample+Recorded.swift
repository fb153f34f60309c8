import MeTubeAPI

extension WireExample {
    /// Every fixture with the wire type it decodes as: the hub API's examples (`hub-`), the status
    /// protocol notes' examples (`ck-`), and the shapes of Apple's CloudKit Web Services Reference
    /// (`ckwsr-`). Between them they reach every wire type of `MeTubeAPI`.
    static let recorded: [WireExample] = [
        .of("hub-register-request.json", HubRegisterRequest.self),
        .of("hub-register-response.json", HubRegisterResponse.self),
        .of("hub-error-no-valid-ids.json", HubErrorBody.self),
        .of("hub-error-invalid-json.json", HubErrorBody.self),
        .of("hub-channels-response.json", HubChannelList.self),
        .of("hub-videos-query-request.json", HubVideoQuery.self),
        .of("hub-videos-query-request-app.json", HubVideoQuery.self),
        .of("hub-videos-query-request-empty.json", HubVideoQuery.self),
        .of("hub-videos-query-response.json", HubVideoPage.self),
        .of("hub-videos-query-response-empty.json", HubVideoPage.self),

        .of("ck-auth-required-error.json", MarkSyncErrorBody.self),
        .of("ck-throttled-error.json", MarkSyncErrorBody.self, dropping: ["error_code", "messageForDeveloper"]),
        .of("ck-limit-exceeded-error.json", MarkSyncErrorBody.self),
        .of("ck-zones-modify-request.json", MarkSyncZonesModifyRequest.self),
        .of("ck-zones-modify-response.json", MarkSyncZonesResponse.self),
        .of("ck-zones-list-response.json", MarkSyncZonesResponse.self),
        .of("ck-zones-lookup-request.json", MarkSyncZonesLookupRequest.self),
        .of("ck-zones-lookup-response-missing.json", MarkSyncZonesResponse.self),
        .of("ck-records-modify-request.json", MarkSyncRecordsModifyRequest.self),
        .of("ck-records-modify-response.json", MarkSyncRecordsResponse.self),
        .of("ck-records-lookup-request.json", MarkSyncRecordsLookupRequest.self),
        .of("ck-records-lookup-response.json", MarkSyncRecordsResponse.self),
        .of("ck-changes-zone-request.json", MarkSyncZoneChangesRequest.self),
        .of("ck-changes-zone-response.json", MarkSyncZoneChangesResponse.self),
        .of("ck-watched-status-modify-request.json", MarkSyncRecordsModifyRequest.self),
        .of("ck-watched-status-conflict-response.json", MarkSyncRecordsResponse.self),

        .of("ckwsr-records-modify-every-operation.json", MarkSyncRecordsModifyRequest.self),
        .of("ckwsr-records-modify-response-per-record-errors.json", MarkSyncRecordsResponse.self),
        .of("ckwsr-records-lookup-request-desired-keys.json", MarkSyncRecordsLookupRequest.self),
        .of("ckwsr-records-lookup-response-field-types.json", MarkSyncRecordsResponse.self),
        .of(
            "ckwsr-records-lookup-response-sharing-keys.json", MarkSyncRecordsResponse.self,
            dropping: ["shortGUID", "parent", "share", "publicPermission", "participants", "owner", "currentUserParticipant", "redirectURL"]
        ),
        .of("ckwsr-changes-zone-request-every-key.json", MarkSyncZoneChangesRequest.self, dropping: ["reverse", "numberAsStrings"]),
        .of("ckwsr-changes-zone-response-more-coming.json", MarkSyncZoneChangesResponse.self),
        .of("ckwsr-changes-zone-response-empty.json", MarkSyncZoneChangesResponse.self),
        .of("ckwsr-zones-modify-create-and-delete.json", MarkSyncZonesModifyRequest.self),
        .of("ckwsr-zones-modify-response-errors.json", MarkSyncZonesResponse.self, dropping: ["redirectURL"]),
        .of("ckwsr-zones-lookup-request-owner.json", MarkSyncZonesLookupRequest.self),
        .of("ckwsr-zones-list-response-minimal.json", MarkSyncZonesResponse.self),
    ]
}
