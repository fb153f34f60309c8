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

        .of("ck-auth-required-error.json", StatusErrorBody.self),
        .of("ck-throttled-error.json", StatusErrorBody.self, dropping: ["error_code", "messageForDeveloper"]),
        .of("ck-limit-exceeded-error.json", StatusErrorBody.self),
        .of("ck-zones-modify-request.json", StatusZonesModifyRequest.self),
        .of("ck-zones-modify-response.json", StatusZonesResponse.self),
        .of("ck-zones-list-response.json", StatusZonesResponse.self),
        .of("ck-zones-lookup-request.json", StatusZonesLookupRequest.self),
        .of("ck-zones-lookup-response-missing.json", StatusZonesResponse.self),
        .of("ck-records-modify-request.json", StatusRecordsModifyRequest.self),
        .of("ck-records-modify-response.json", StatusRecordsResponse.self),
        .of("ck-records-lookup-request.json", StatusRecordsLookupRequest.self),
        .of("ck-records-lookup-response.json", StatusRecordsResponse.self),
        .of("ck-changes-zone-request.json", StatusZoneChangesRequest.self),
        .of("ck-changes-zone-response.json", StatusZoneChangesResponse.self),
        .of("ck-watched-status-modify-request.json", StatusRecordsModifyRequest.self),
        .of("ck-watched-status-conflict-response.json", StatusRecordsResponse.self),

        .of("ckwsr-records-modify-every-operation.json", StatusRecordsModifyRequest.self),
        .of("ckwsr-records-modify-response-per-record-errors.json", StatusRecordsResponse.self),
        .of("ckwsr-records-lookup-request-desired-keys.json", StatusRecordsLookupRequest.self),
        .of("ckwsr-records-lookup-response-field-types.json", StatusRecordsResponse.self),
        .of(
            "ckwsr-records-lookup-response-sharing-keys.json", StatusRecordsResponse.self,
            dropping: ["shortGUID", "parent", "share", "publicPermission", "participants", "owner", "currentUserParticipant", "redirectURL"]
        ),
        .of("ckwsr-changes-zone-request-every-key.json", StatusZoneChangesRequest.self, dropping: ["reverse", "numberAsStrings"]),
        .of("ckwsr-changes-zone-response-more-coming.json", StatusZoneChangesResponse.self),
        .of("ckwsr-changes-zone-response-empty.json", StatusZoneChangesResponse.self),
        .of("ckwsr-zones-modify-create-and-delete.json", StatusZonesModifyRequest.self),
        .of("ckwsr-zones-modify-response-errors.json", StatusZonesResponse.self, dropping: ["redirectURL"]),
        .of("ckwsr-zones-lookup-request-owner.json", StatusZonesLookupRequest.self),
        .of("ckwsr-zones-list-response-minimal.json", StatusZonesResponse.self),
    ]
}
