// The examples of the documentation's articles (KilnClient.docc), one per app, compiled with the package and run end to
// end against a Kiln on the provider simulator by the server's integration tests (ClientExampleTests); a test holds the
// articles' code blocks to this file, so the documentation cannot drift from code that works.
public import Foundation
public import KilnClient

// MARK: Setup

/// The client of one app: its Kiln, its key, the user's credential (asked for before each request) and the device.
public func makeKiln(baseURL: URL, apiKey: String, device: String, credential: @escaping @Sendable () async throws -> Credential) -> Kiln {
    var configuration = KilnConfiguration(baseURL: baseURL, apiKey: apiKey, device: device, credential: credential)
    configuration.retryBudget = .seconds(20)  // how long a call may wait out a 429 or 503 before it throws
    return Kiln(configuration)
}

// MARK: Talevonia

/// Three continuations of the reader's path, each card showing its text as the model writes it.
public func continueStory(kiln: Kiln, path: TextContinueInput, show: ([Int: String]) -> Void) async throws -> [StoryPassage] {
    let job = try await kiln.submit(.textContinue, input: path)
    var drafts: [Int: String] = [:]  // by choice, 0–2
    let result = try await kiln.result(of: job) { event in
        switch event {
        case .delta(let text, let choice): drafts[choice, default: ""] += text
        case .retract: drafts = [:]  // withdrawn: what follows replaces it
        default: return
        }
        show(drafts)
    }
    return result.continuations
}

// MARK: ChatTale

/// The conversation as a video in the user's settings (`settings.format = .portrait` for TikTok): the render's progress,
/// then the download's, then the file for the share sheet.
public func exportChat(
    kiln: Kiln, conversation: ChatConversation, settings: ChatExportSettings, rendering: (Double) -> Void, downloading: (Double) -> Void
) async throws -> URL {
    let job = try await kiln.submit(.videoChatExport, input: ChatExportInput(conversation: conversation, settings: settings))
    let video = try await kiln.result(of: job) { event in
        if case .progress(let report) = event { rendering(report.fraction) }
    }
    return try await kiln.download(video.artifact, of: job, progress: downloading)
}

// MARK: WorldArchitect

/// The player's action played: the scene shown as it is written, then the turn, whose `state` goes with the next one.
public func playTurn(
    kiln: Kiln, state: CampaignState, scene: Int, recent: [CampaignTurnInput.Scene], action: String, show: (String) -> Void
) async throws -> CampaignTurn {
    let input = CampaignTurnInput(state: state, sceneNumber: scene, recentScenes: recent, action: action)
    let job = try await kiln.submit(.campaignTurn, input: input)
    var narrative = ""
    return try await kiln.result(of: job) { event in
        switch event {
        case .delta(let text, _): narrative += text
        case .retract: narrative = ""
        default: return
        }
        show(narrative)
    }
}

// MARK: Veramo

/// A photo from the gallery edited by a prompt: uploaded, edited, downloaded into My Gallery.
public func editPhoto(kiln: Kiln, jpeg: Data, prompt: String) async throws -> URL {
    let photo = try await kiln.upload(jpeg, contentType: "image/jpeg")
    let job = try await kiln.submit(.imageGenerate, input: ImageGenerateInput(prompt: prompt, style: .dreamy, images: [photo.id]))
    let image = try await kiln.result(of: job)
    return try await kiln.download(image.artifact, of: job)
}

/// The partner invite: one phone invites, the other redeems the code, the first accepts; then they share one plan.
public func pairPartners(inviter: Kiln, invitee: Kiln) async throws -> Partnership.Link {
    let invitation = try await inviter.invitePartner()  // its code goes to the partner (a link, a QR code)
    try await invitee.redeemInvitation(invitation.code)
    try await inviter.acceptInvitation(invitation.code)
    return try await inviter.partner()
}

// MARK: Joanie

/// A bedtime story from 5–10 drawings: each uploaded, then the story, with the paragraph each drawing follows.
public func bedtimeStory(kiln: Kiln, drawings: [Data], child: DrawingStoryChild) async throws -> DrawingStory {
    var uploads: [String] = []
    for drawing in drawings { uploads.append(try await kiln.upload(drawing, contentType: "image/png").id) }
    let job = try await kiln.submit(.storyFromDrawings, input: StoryFromDrawingsInput(drawings: uploads, child: child))
    return try await kiln.result(of: job)  // show paragraph n, then the drawings whose afterParagraph is n
}
