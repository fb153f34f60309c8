import AsyncHTTPClient
import Foundation
import Hummingbird
import MeTubeTransfer
import NIOCore
import Testing
import TestSupport

/// One bounded transfer against a loopback server: the answer whole when it keeps within its
/// limits, else the one failure that names the limit it broke.
@Suite struct PeerTransferTests {
    /// Serves `/ok` (201, "hello"), `/big` (2 MiB), `/hang` (answers after 5 s) and `/brotli`
    /// (a body said to be brotli, which was not asked for).
    private static func server() async -> (service: BackgroundService, url: String) {
        let router = Router()
        router.get("/ok") { _, _ in Response(status: .created, body: ResponseBody(byteBuffer: ByteBuffer(string: "hello"))) }
        router.get("/big") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(repeating: 0x61, count: 2 << 20))) }
        router.get("/hang") { _, _ -> Response in
            try? await Task.sleep(for: .seconds(5))
            return Response(status: .ok)
        }
        router.get("/brotli") { _, _ in
            Response(status: .ok, headers: [.contentEncoding: "br"], body: ResponseBody(byteBuffer: ByteBuffer(string: "not brotli")))
        }
        return await BackgroundService.serve(router, label: "peer-transfer-stub")
    }

    private static func get(_ url: String, limits: TransferLimits = TransferLimits(total: .seconds(60))) async -> Result<String, TransferFailure> {
        do throws(TransferFailure) {
            let response = try await HTTPClient.peers.transfer(HTTPClientRequest(url: url), limits: limits)
            return .success("\(response.status) \(String(buffer: response.body))")
        } catch {
            return .failure(error)
        }
    }

    @Test func anAnswerWithinItsLimitsArrivesWhole() async {
        let (service, url) = await Self.server()
        defer { service.stop() }
        #expect(await Self.get(url + "/ok") == .success("201 hello"))
    }

    @Test func eachBrokenLimitIsItsOwnFailure() async {
        let (service, url) = await Self.server()
        defer { service.stop() }
        #expect(await Self.get(url + "/big", limits: TransferLimits(total: .seconds(60), maxBodyBytes: 1 << 20)) == .failure(.tooLarge(maxBytes: 1 << 20)))
        #expect(await Self.get(url + "/hang", limits: TransferLimits(total: .milliseconds(500))) == .failure(.timedOut(seconds: 0.5)))
        #expect(await Self.get(url + "/ok", limits: TransferLimits(runDeadline: .now - .seconds(1))) == .failure(.runDeadlinePassed))
        guard case .failure(.badEncoding(let detail)) = await Self.get(url + "/brotli") else {
            Issue.record("a brotli body was not refused")
            return
        }
        #expect(detail == "is encoded as br, which was not asked for")
    }

    @Test func aRefusedConnectionIsAConnectionFailure() async {
        guard case .failure(.connection) = await Self.get("http://127.0.0.1:1/") else {
            Issue.record("port 1 answered")
            return
        }
    }
}
